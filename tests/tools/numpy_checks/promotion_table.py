# numpy's np.result_type for the 14 numpy dtypes (bool + bool under + gives i64 in tl, as Python's True + True),
# and docs/language.md §7's bf16 rules: bf16+f16 -> f32, bf16+f32 -> f32, bf16+f64 -> f64, bf16+bool/any int -> bf16,
# bf16+c64 -> c64, bf16+c128 -> c128 (bf16 widens safely to f32, so to c64).
import numpy as np
names = ["bool", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "c64", "c128"]
np_of = {"bool": np.bool_, "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
         "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "f16": np.float16,
         "f32": np.float32, "f64": np.float64, "c64": np.complex64, "c128": np.complex128}
tl_of = {np.dtype(v): k for k, v in np_of.items()}
BF16 = {"bool": "bf16", "u8": "bf16", "u16": "bf16", "u32": "bf16", "u64": "bf16", "i8": "bf16", "i16": "bf16",
        "i32": "bf16", "i64": "bf16", "f16": "f32", "bf16": "bf16", "f32": "f32", "f64": "f64", "c64": "c64",
        "c128": "c128"}
def add_dtype(x, y):
    if x == "bf16": return BF16[y]
    if y == "bf16": return BF16[x]
    if x == "bool" and y == "bool": return "i64"
    return tl_of[np.result_type(np_of[x], np_of[y])]
for x in names:
    print(x + ": " + " ".join(add_dtype(x, y) for y in names))
