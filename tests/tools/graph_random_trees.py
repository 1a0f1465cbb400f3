#!/usr/bin/env python3
"""graph_random_trees.py — random expression trees computed eagerly and through graph() must agree bit for bit.

Usage: graph_random_trees.py TL [COUNT] [SEED]
Writes one tl program holding COUNT random functions f(a, b, c) over operands of random
dtypes (bool, ints, f16, bf16, f32, f64, c64), broadcasting shapes, weak literals and
numbers of fixed dtype, binary operators, unary functions and reductions over the last axis
with keepdims true or false (which graphs run as a fused group's epilogue) (one tree in five over tensors
big enough for the evaluator to fuse the tree eagerly), with operand a laid out in memory as a
transpose, a step or a reversal of its last axis in one tree in three (eager reduces such rows in
another order than a row of a fused block), over the big tensors and reduced itself half the time. For each, the program
computes f eagerly and through g = graph(f, ...) for the examples and for a second set of
values of the same shapes and dtypes, and compares dtype, shape and every byte (bitcast to
u8). A tree that fails eagerly (a dtype an operator refuses) must fail through the graph
too. Prints the counts; exits 1 on any disagreement.
"""
import random
import subprocess
import sys
import tempfile

DTYPES = ['bool', 'i8', 'i32', 'i64', 'u8', 'f16', 'bf16', 'f32', 'f64', 'c64']
SHAPES = [('(3, 4)', '(4,)'), ('(3, 4)', '(3, 1)'), ('(2, 1, 4)', '(3, 4)'), ('(5,)', '(1,)'), ('(4,)', '(4,)')]
# big enough for the evaluator to run a statement's tree as one fused program (src/fuse.c)
BIG_SHAPES = [('(300, 256)', '(256,)'), ('(300, 256)', '(300, 1)'), ('(70000,)', '(1,)')]
BINOPS = ['+', '-', '*', '/', '//', '%', '**', '==', '<', '>=', '&', '|', 'maximum', 'minimum']
UNARY = ['-', 'abs', 'exp', 'sqrt', 'tanh', 'sin', 'floor', 'relu', 'sigmoid', 'square', 'f32', 'f64', 'bf16', 'i32',
         'isnan', 'gelu', 'log1p']
REDUCTIONS = ['sum', 'mean', 'max', 'min']
LITERALS = ['2', '0.5', '-3', 'true', '1.5', '3', 'f32(1.25)', 'i8(2)', 'f16(0.75)', 'bf16(2.5)', 'u8(3)']


def tree(rng, depth):
    """A random expression over a, b, c."""
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(['a', 'b', 'c', 'a', 'b', rng.choice(LITERALS)])
    if rng.random() < 0.12:   # a reduction over the last axis: a fused group's epilogue, read back per row
        r, inner = rng.choice(REDUCTIONS), tree(rng, depth - 1)
        keep = 'true' if rng.random() < 0.7 else 'false'   # false: written out, not read back in the group
        return f'{r}({inner}, axis=-1, keepdims={keep})'
    if rng.random() < 0.35:
        u = rng.choice(UNARY)
        inner = tree(rng, depth - 1)
        return f'(-{inner})' if u == '-' else f'{u}({inner})'
    op = rng.choice(BINOPS)
    x, y = tree(rng, depth - 1), tree(rng, depth - 1)
    if op in ('maximum', 'minimum'):
        return f'{op}({x}, {y})'
    return f'({x} {op} {y})'


def maker(dtype, shape):
    """tl code for random values of a dtype and shape (small ints so powers stay in range)."""
    if dtype == 'bool':
        return f'randint(0, 2, {shape}) > 0'
    if dtype in ('i8', 'i32', 'i64', 'u8'):
        lo = 0 if dtype == 'u8' else -4
        return f'{dtype}(randint({lo}, 5, {shape}))'
    if dtype == 'c64':
        return f'c64(randn({shape}) + 1j * randn({shape}))'
    return f'{dtype}(randn({shape}) * 2)'


def laid_out(make, dtype, shape, layout):
    """tl code for values of a dtype and shape made by make(dtype, shape), in a memory layout:
    'c' (C-contiguous), 'T' (a transpose), 'step' (every other element of the last axis),
    'flip' (the last axis reversed)."""
    dims = [int(d) for d in shape.strip('()').split(',') if d.strip()]
    def tup(ds):
        return '(' + ', '.join(str(d) for d in ds) + (',)' if len(ds) == 1 else ')')
    if layout == 'T' and len(dims) >= 2:
        return f'T({make(dtype, tup(dims[::-1]))})'
    if layout == 'step':
        return f'({make(dtype, tup(dims[:-1] + [2 * dims[-1]]))})[..., ::2]'
    if layout == 'flip':
        return f'flip({make(dtype, shape)}, -1)'
    return make(dtype, shape)


def program(rng, count):
    lines = ['fn bits(x) = bitcast(contiguous(atleast_1d(x)), u8)',
             'fn same(x, y) = dtype(x) == dtype(y) and shape(x) == shape(y) and array_equal(bits(x), bits(y))',
             'agree = 0', 'refused = 0', 'bad = 0']
    for i in range(count):
        layout = rng.choice(['T', 'step', 'flip']) if rng.random() < 1 / 3 else 'c'
        # rows long enough for the order of additions to show, half the time a layout is drawn
        big = i % 5 == 4 or (layout != 'c' and rng.random() < 0.5)
        sa, sb = rng.choice(BIG_SHAPES if big else SHAPES)
        da, db, dc = rng.choice(DTYPES), rng.choice(DTYPES), rng.choice(DTYPES)
        c_is_number = rng.random() < 0.4
        expr = tree(rng, rng.randint(1, 4))
        if layout != 'c' and rng.random() < 0.5:   # a reduction reading a itself (f32, f64), in a group
            expr = f'({rng.choice(REDUCTIONS)}(a, axis=-1, keepdims=true) + {expr})'
            da = rng.choice(['f32', 'f64'])
        lines.append(f'# tree {i}: {expr}')
        lines.append(f'fn tree{i}(a, b, c) = {expr}')
        for s, suffix in ((2 * i, ''), (2 * i + 1, '2')):
            lines.append(f'seed({s})')
            lines.append(f'a{suffix} = {laid_out(maker, da, sa, layout)}')
            lines.append(f'b{suffix} = {maker(db, sb)}')
            lines.append(f'c{suffix} = ' + (f'{dc}(randint(1, 4, ()))' if c_is_number else maker(dc, sb)))
        lines.append(f'''ok = true
try {{ e = tree{i}(a, b, c) }} catch err {{ ok = false }}
if ok {{
    g = graph(tree{i}, a, b, c)
    r = g(a, b, c)
    e2ok = true
    try {{ e2 = tree{i}(a2, b2, c2) }} catch err {{ e2ok = false }}
    if e2ok {{ r2 = g(a2, b2, c2) }}
    if same(e, r) and (not e2ok or same(e2, r2)) {{ agree = agree + 1 }} else {{ bad = bad + 1; print("MISMATCH tree {i}") }}
}} else {{
    gok = true
    try {{ g = graph(tree{i}, a, b, c) }} catch err {{ gok = false }}
    if gok {{ bad = bad + 1; print("graph built where eager failed: tree {i}") }} else {{ refused = refused + 1 }}
}}''')
    lines.append('print(fmt("agree {} refused {} bad {}", agree, refused, bad))')
    return '\n'.join(lines) + '\n'


def main():
    tl = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 13
    rng = random.Random(seed)
    with tempfile.NamedTemporaryFile('w', suffix='.tl', delete=False) as f:
        f.write(program(rng, count))
        path = f.name
    r = subprocess.run([tl, path], capture_output=True, text=True, timeout=600)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ''
    if r.returncode != 0 or not last.startswith('agree') or not last.endswith('bad 0'):
        print(f'FAILED (program kept in {path})')
        return 1
    agree = int(last.split()[1])
    if agree < count // 3:   # the trees must mostly be computable, or the test proves little
        print(f'FAILED: only {agree} of {count} trees computed')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
