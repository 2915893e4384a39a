"""Cache hints for loops over a batch: start loading the next item's memory while the current one is worked on.

A batched step reads a lane's record in the order its rules need, one cache line after another, each a wait
when the batch is larger than the cache; asking for the next lane's lines ahead (LLVM's ``llvm.prefetch``,
a hint that never faults and changes no value) overlaps those waits with the current lane's work.
"""

from __future__ import annotations

from llvmlite import ir
from numba import njit
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

LINE = 64  # bytes of a cache line


def _prefetch_intrinsic(rw: int):
    """An intrinsic ``(arr, i, offset)`` hinting the cache to load the line at byte ``offset`` of ``arr[i]``, for
    reading (``rw`` 0) or writing (1)."""

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        stride = cgutils.unpack_tuple(builder, ary.strides)[0]
        base = builder.ptrtoint(ary.data, stride.type)
        i = context.cast(builder, args[1], signature.args[1], types.intp)
        off = context.cast(builder, args[2], signature.args[2], types.intp)
        addr = builder.add(base, builder.add(builder.mul(i, stride), off))
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.inttoptr(addr, i8p), i32(rw), i32(3), i32(1)])  # keep in every level, data
        return context.get_dummy_value()

    def prefetch_at(typingctx, arr, i, offset):
        return types.void(arr, i, offset), codegen

    return intrinsic(prefetch_at)


_prefetch_read = _prefetch_intrinsic(0)
_prefetch_write = _prefetch_intrinsic(1)


@njit(cache=True, nogil=True, inline="always")
def prefetch_row(arr, i):
    """Hint the cache to load every line of ``arr[i]`` (a record of a record array, a row of a C-ordered 2-D
    array) for reading; ``i`` must be inside ``arr``."""
    for off in range(0, arr.strides[0], LINE):
        _prefetch_read(arr, i, off)


@njit(cache=True, nogil=True, inline="always")
def prefetch_row_for_write(arr, i):
    """``prefetch_row`` for a row about to be written."""
    for off in range(0, arr.strides[0], LINE):
        _prefetch_write(arr, i, off)
