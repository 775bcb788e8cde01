package io.strata.cli.workload;

/**
 * The SplitMix64 generator of the standard workload (shared/bench/WORKLOAD.md): every value is
 * a pure function of the seed and the number of draws so far, so two runs, or two engines fed
 * by two instances with the same seed, see the same stream. Not thread-safe.
 */
public final class SplitMix64 {
    private static final long GAMMA = 0x9E3779B97F4A7C15L;

    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    /** The next 64 random bits (wrapping arithmetic, as specified). */
    public long next() {
        state += GAMMA;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * One draw reduced to {@code [0, n)} by an unsigned remainder. Slightly biased for an {@code n}
     * that is not a power of two; the workload defines it this way, so do not "fix" it.
     *
     * @throws IllegalArgumentException if {@code n <= 0}
     */
    public long below(long n) {
        if (n <= 0) {
            throw new IllegalArgumentException("below(n) needs n > 0, got " + n);
        }
        return Long.remainderUnsigned(next(), n);
    }
}
