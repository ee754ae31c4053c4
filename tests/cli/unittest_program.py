# A test file as Warp's are written: TestCase methods added by a helper, closures over the
# helper's arguments, skips, and assertions that pass, fail and raise.
import unittest
from typing import Any


def add_test(cls, name, func, args, kwargs):
    def test_method(self):
        func(self, *args, **kwargs)

    setattr(cls, name, test_method)


def check_sum(test, values, expected=0):
    test.assertEqual(sum(values), expected)


def check_raises(test, text):
    with test.assertRaisesRegex(ValueError, r"bad \w+"):
        raise ValueError(text)
    with test.assertRaises((KeyError, IndexError)) as ctx:
        [1, 2][5]
    test.assertIsInstance(ctx.exception, IndexError)


class Shape:
    pass


class TestProgram(unittest.TestCase):
    def test_isinstance_and_starred(self):
        parts = [1, 2]
        self.assertTrue(isinstance(Shape(), Shape))
        self.assertEqual((*parts, 3), (1, 2, 3))
        self.assertAlmostEqual(0.1 + 0.2, 0.3)

    @unittest.skipUnless(False, "needs a GPU")
    def test_skipped(self):
        self.fail("runs")


add_test(TestProgram, "test_sum_ok", check_sum, ([1, 2, 3],), {"expected": 6})
add_test(TestProgram, "test_sum_wrong", check_sum, ([1, 2],), {"expected": 4})
add_test(TestProgram, "test_raises", check_raises, ("bad value",), {})
add_test(TestProgram, "test_error", check_raises, ("good value",), {})

if __name__ == "__main__":
    unittest.main(verbosity=2)
