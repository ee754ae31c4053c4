# A struct the checker rejects: using it raises tilec.CompileError whose message names the first
# error, and the checker's diagnostics (with the field's place in this file) are printed.
import warp as wp


@wp.struct
class Holder:
    x: wp.tile[float, 4]  # tiles in structs: not in the language


@wp.struct
class Fine:
    a: float


f = Fine()
f.a = 2.5
print("fine", f.a)
try:
    Holder()
except TypeError as e:
    print("caught", e)
wp.empty(3, dtype=Holder)
