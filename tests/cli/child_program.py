# Warp's run_python_subprocess: the source runs in a child tilec with its arguments and the
# environment given; the parent reads its exit status and output.
import os

from warp.tests.unittest_utils import run_python_subprocess

r = run_python_subprocess(
    "import os, sys\nprint('args', sys.argv[1:], os.getenv('CHILD_FLAG'))\nprint('to stderr', file=sys.stderr)\nsys.exit(3)",
    "a",
    "b c",
    env_updates={"CHILD_FLAG": "on"},
)
print("returncode", r.returncode)
print("stdout", repr(r.stdout))
print("stderr", repr(r.stderr.splitlines()[-1]))
print("parent env", os.getenv("CHILD_FLAG"))
