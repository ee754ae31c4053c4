# A helper module for module_import.py.
import warp as wp

factor = 3.0
_calls = [0]


def scale(v):
    _calls[0] += 1
    return v * factor


def calls():
    return _calls[0]


class Counter:
    def __init__(self):
        self.n = 0

    def bump(self):
        self.n += 1


@wp.kernel
def times_factor(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * float(factor)
