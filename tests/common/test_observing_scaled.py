"""``observing.reciprocal``, ``scaled`` and ``copied``: the encoders' multiply by a checked reciprocal writes the
float32 a division would (issue #46: observations stay bit-identical)."""

import numpy as np
import pytest
from numba import njit

from tabletop_zoo.kernels._common import observing


@pytest.mark.parametrize("divisor", [3.0, 10.0, 13.0, 50.0, 100.0, 0.1])
def test_reciprocal_is_the_inverse_and_rounds_as_the_division(divisor):
    inverse = observing.reciprocal(divisor)
    assert inverse == 1.0 / divisor
    values = np.arange(-observing.EXACT_RANGE, observing.EXACT_RANGE + 1)
    quotient = (values / divisor).astype(np.float32)
    product = (values * inverse).astype(np.float32)
    np.testing.assert_array_equal(quotient.view(np.uint32), product.view(np.uint32))


def test_reciprocal_refuses_a_divisor_whose_product_rounds_otherwise():
    with pytest.raises(ValueError, match="divisor 1e-310"):  # 1 / 1e-310 overflows: 0 * inf is not 0 / 1e-310
        observing.reciprocal(1e-310)


@njit
def _scaled(out, at, values, inverse):
    observing.scaled(out, at, values, inverse)


@njit
def _copied(out, at, values):
    observing.copied(out, at, values)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16])
def test_scaled_writes_the_row_divided_and_nothing_else(dtype):
    info = np.iinfo(dtype)
    values = np.arange(info.min, info.max + 1).astype(dtype)
    out = np.full(values.size + 3, 7.0, np.float32)
    _scaled(out, 2, values, observing.reciprocal(10.0))
    np.testing.assert_array_equal(out[2:-1].view(np.uint32), (values / 10.0).astype(np.float32).view(np.uint32))
    assert out[:2].tolist() == [7.0, 7.0] and out[-1] == 7.0


def test_copied_writes_the_row_and_nothing_else():
    values = np.array([0, 1, 1, 0, 3], np.uint8)
    out = np.full(8, 7.0, np.float32)
    _copied(out, 1, values)
    assert out.tolist() == [7.0, 0.0, 1.0, 1.0, 0.0, 3.0, 7.0, 7.0]
