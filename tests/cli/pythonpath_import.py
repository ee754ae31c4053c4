# `scaling` is not beside this program: it is found along PYTHONPATH.
from scaling import scale

print("scaled", scale(5))
