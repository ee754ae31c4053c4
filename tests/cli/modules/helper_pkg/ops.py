# A submodule of the helper package.
def twice(v):
    return 2 * v
