"""The one seeded random generator of a game: PCG32 (XSH RR), specified here.

Every random choice of the runtime (shuffles, random targets) draws from it,
so a seed gives the same game on every machine and Python version. The
algorithm, as documented in docs/runtime.md:

    state, inc: 64-bit; seeding with (seed, stream=54):
        inc = (stream << 1) | 1; state = 0; next(); state += seed; next()
    next():  old = state; state = old * 6364136223846793005 + inc  (mod 2^64)
             xorshifted = ((old >> 18) ^ old) >> 27  (low 32 bits)
             rot = old >> 59
             return rotr32(xorshifted, rot)
    below(n): unbiased integer in [0, n): rejection of the low
             (2^32 mod n) values, then value % n
    shuffle(xs): Fisher-Yates from the end: for i = len-1 .. 1:
             j = below(i + 1); swap xs[i], xs[j]
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_MULT = 6364136223846793005


class Pcg32:
    __slots__ = ("state", "inc")

    def __init__(self, seed: int = 0, stream: int = 54):
        self.inc = ((stream << 1) | 1) & _MASK64
        self.state = 0
        self.next_u32()
        self.state = (self.state + (seed & _MASK64)) & _MASK64
        self.next_u32()

    def copy(self) -> Pcg32:
        other = Pcg32.__new__(Pcg32)
        other.state, other.inc = self.state, self.inc
        return other

    def next_u32(self) -> int:
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def below(self, n: int) -> int:
        """An unbiased integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        threshold = ((1 << 32) - n) % n
        while True:
            r = self.next_u32()
            if r >= threshold:
                return r % n

    def shuffle(self, xs: list) -> None:
        for i in range(len(xs) - 1, 0, -1):
            j = self.below(i + 1)
            xs[i], xs[j] = xs[j], xs[i]

    def choice(self, xs):
        return xs[self.below(len(xs))]

    def key(self) -> tuple[int, int]:
        return (self.state, self.inc)
