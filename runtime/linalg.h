/* linalg.h — numpy.linalg's decompositions, exact integer det, einsum/tensordot and the FFT (batched over leading axes) */
#ifndef TL_LINALG_H
#define TL_LINALG_H

#include "tensor.h"

/* Decompositions (decomp.c), each over the last two axes, batched over the rest like
   numpy.linalg. Inputs that are bool or integer compute in f64, f16/bf16 in f32 (numpy
   refuses f16), others in their own dtype. Failures (singular, not converged, not
   positive definite) return NULL / -1 with numpy's LinAlgError message set. */

/* Singular values s (real, descending); with uv, also u and vh (full or reduced). */
tl_tensor *tl_svd(const tl_tensor *a, bool full, bool uv, tl_tensor **u, tl_tensor **vh);
/* Eigenvalues w and (v not NULL) right eigenvectors of general matrices; real when every
   eigenvalue of a real input is real, else complex (numpy's rule). */
int tl_eig(const tl_tensor *a, tl_tensor **w, tl_tensor **v);
/* Eigenvalues (ascending) and (v not NULL) eigenvectors of Hermitian matrices, read from triangle uplo 'L' or 'U'. */
int tl_eigh(const tl_tensor *a, char uplo, tl_tensor **w, tl_tensor **v);
typedef enum tl_qr_mode { TL_QR_REDUCED, TL_QR_COMPLETE, TL_QR_R } tl_qr_mode;
/* QR: q (not for TL_QR_R, where q may be NULL) and r. */
int tl_qr(const tl_tensor *a, tl_qr_mode mode, tl_tensor **q, tl_tensor **r);
/* Lower Cholesky factor. */
tl_tensor *tl_cholesky(const tl_tensor *a);
/* Least squares of 2-d a and 1- or 2-d b: out = {x, residuals, rank (0-d i32, as numpy), s};
   rcond < 0 means numpy 2's default eps * max(m, n). */
int tl_lstsq(const tl_tensor *a, const tl_tensor *b, double rcond, tl_tensor *out[4]);
/* Moore-Penrose pseudo-inverse, singular values below rcond * largest dropped. */
tl_tensor *tl_pinv(const tl_tensor *a, double rcond);
/* Sign (or complex phase) and log of |det|; a singular matrix gives 0 and -inf. */
int tl_slogdet(const tl_tensor *a, tl_tensor **sign, tl_tensor **logdet);
/* Number of singular values above tol (NULL: largest * max(m, n) * eps), as i64. */
tl_tensor *tl_matrix_rank(const tl_tensor *a, const tl_tensor *tol);
/* Exact determinant of an integer (or bool) matrix stack as i64, by fraction-free
   (Bareiss) elimination; a minor that leaves i64 is an overflow error. */
tl_tensor *tl_det_exact(const tl_tensor *a);
tl_tensor *tl_det_exact_to(const tl_tensor *a, tl_tensor *into);

/* Products built on matmul (contract.c). numpy's einsum: subscripts as numpy's ("ij,jk->ik",
   implicit output, "..." broadcasting, repeated labels as diagonals); each pairwise
   contraction is one batched GEMM, the result in the operands' promoted dtype. */
tl_tensor *tl_einsum(const char *subscripts, int nops, const tl_tensor *const *operands);
/* Sum over a's axes axes_a[i] against b's axes_b[i] (normalized), a's free axes then b's. */
tl_tensor *tl_tensordot(const tl_tensor *a, const tl_tensor *b, int n, const int *axes_a, const int *axes_b);
/* Kronecker product (numpy's kron: the shorter shape padded with leading 1s). */
tl_tensor *tl_kron(const tl_tensor *a, const tl_tensor *b);
/* a (a square matrix stack) to the integer power n by repeated squaring; n < 0 inverts first. */
tl_tensor *tl_matrix_power(const tl_tensor *a, int64_t n);
/* The _to forms: the result written into `into` when it fits (tl_tensor_result: its dtype and
   size), by the step that makes it; the steps before use working tensors. */
tl_tensor *tl_einsum_to(const char *subscripts, int nops, const tl_tensor *const *operands, tl_tensor *into);
tl_tensor *tl_tensordot_to(const tl_tensor *a, const tl_tensor *b, int n, const int *axes_a, const int *axes_b,
                           tl_tensor *into);
tl_tensor *tl_kron_to(const tl_tensor *a, const tl_tensor *b, tl_tensor *into);
tl_tensor *tl_matrix_power_to(const tl_tensor *a, int64_t n, tl_tensor *into);

/* numpy.fft (fft.c): one transform along an axis, computed in double precision (results
   c128, or c64 / f32 for f32, c64, f16 and bf16 input). n < 0: the input's length
   (irfft: 2 * (m - 1)); otherwise the input is cropped or zero-padded to n. */
typedef enum tl_fft_kind { TL_FFT_FFT, TL_FFT_IFFT, TL_FFT_RFFT, TL_FFT_IRFFT } tl_fft_kind;
typedef enum tl_fft_norm { TL_FFT_BACKWARD, TL_FFT_ORTHO, TL_FFT_FORWARD } tl_fft_norm;
tl_tensor *tl_fft(const tl_tensor *a, int64_t n, int axis, tl_fft_kind kind, tl_fft_norm norm);
/* fftfreq (real: rfftfreq) of n points with spacing d, f64. */
tl_tensor *tl_fftfreq(int64_t n, double d, bool real);

#endif
