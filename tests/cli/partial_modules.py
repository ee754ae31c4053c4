# Modules the host answers in part import, so that code using them only on some paths runs;
# using a name tilec lacks raises NotImplementedError naming it. `import warp.types` is
# `wp.types`; sys.version_info and np.lib.NumpyVersion answer as CPython 3.11 and NumPy 1.24.
import ast
import sys
import textwrap

import numpy as np
import warp as wp
import warp.fem
import warp.types

print("types", warp.types.vector(3, float) == wp.types.vector(3, float))
print("version", sys.version_info >= (3, 11), np.lib.NumpyVersion(np.__version__) >= "2.4.0")
print("dedent", repr(textwrap.dedent("    a\n      b\n")))
for use in (lambda: ast.parse("x"), lambda: warp.fem.Sample()):
    try:
        use()
    except NotImplementedError as e:
        print("refused", e)
