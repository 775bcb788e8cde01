package io.strata.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SplitMix64Test {

    @Test
    void matchesTheReferenceOutputForSeedZero() {
        // The first outputs of the reference splitmix64.c (Vigna) started from x = 0.
        SplitMix64 r = new SplitMix64(0);

        assertThat(r.next()).isEqualTo(0xE220A8397B1DCDAFL);
        assertThat(r.next()).isEqualTo(0x6E789E6AA1B965F4L);
        assertThat(r.next()).isEqualTo(0x06C45D188009454FL);
    }

    @Test
    void belowIsTheUnsignedRemainderOfOneDraw() {
        SplitMix64 a = new SplitMix64(42);
        SplitMix64 b = new SplitMix64(42);
        for (int i = 0; i < 1_000; i++) {
            long n = 1 + i * 7919L;
            assertThat(a.below(n))
                    .isEqualTo(Long.remainderUnsigned(b.next(), n))
                    .isBetween(0L, n - 1);
        }
    }

    @Test
    void belowRejectsAnEmptyRange() {
        assertThatThrownBy(() -> new SplitMix64(1).below(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
