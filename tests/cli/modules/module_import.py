# Imports of Python files, found as CPython finds them: beside the program (a module, and a
# package's submodule), then along PYTHONPATH. Each module keeps its own globals.
import numpy as np
import warp as wp

import scaling
from helper_pkg import ops
from scaling import scale, Counter

factor = 100  # the program's own `factor` does not change the module's
print(scaling.__name__, scale(2.0), scaling.factor, ops.twice(21))
c = Counter()
c.bump()
c.bump()
print("count", c.n)

x = wp.array(np.arange(4, dtype=np.float32))
wp.launch(scaling.times_factor, dim=4, inputs=[x])
print(x.numpy())
import scaling as again
print("same module", again is scaling, "calls", scaling.calls())

try:
    import no_such_module_here
except ModuleNotFoundError as e:
    print("caught", e)
