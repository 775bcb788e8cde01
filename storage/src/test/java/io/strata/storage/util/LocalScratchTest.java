package io.strata.storage.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalScratchTest {
    @TempDir
    Path root;

    /** The pid of a process that ran and ended: no process has it now (pids are not reused at once). */
    static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        long pid = p.pid();
        assertThat(ProcessHandle.of(pid)).as("process %d has ended", pid).isEmpty();
        return pid;
    }

    /** A leftover scratch directory of {@code pid} started at {@code start}, holding one file. */
    static Path leftover(Path root, long pid, long start) throws IOException {
        Path dir = Files.createDirectories(
                root.resolve("strata-" + pid + "-" + start).resolve("strata-lookup-1"));
        return Files.writeString(dir.resolve("a.lookup"), "x");
    }

    @Test
    void firstUseRemovesTheFilesOfDeadProcessesAndKeepsLiveOnesAndForeignFiles() throws Exception {
        long dead = deadPid();
        Path ofDead = leftover(root, dead, 1_700_000_000_000L);
        Path ofDeadWithoutStart = leftover(root, deadPid(), 0);
        long self = ProcessHandle.current().pid();
        long selfStart = LocalScratch.startMillis(ProcessHandle.current());
        Path ofEarlierProcessWithMyPid = leftover(root, self, selfStart - 60_000);
        Process live = new ProcessBuilder("sleep", "60").start();
        try {
            Path ofLive = leftover(root, live.pid(), LocalScratch.startMillis(live.toHandle()));
            Path ofLiveStartUnknown = leftover(root, live.pid(), 0);
            Path foreignFile = Files.writeString(root.resolve("strata-" + dead + "-1"), "a file, not a directory");
            Path foreignDir = Files.createDirectories(root.resolve("other-" + dead + "-1"));
            Path oldLayout = Files.writeString(root.resolve("strata-spill-123.bin"), "x");

            File mine = LocalScratch.processDir(root.toFile());

            assertThat(mine).isDirectory().hasName(LocalScratch.selfName());
            assertThat(ofDead.getParent().getParent()).as("dead pid " + dead).doesNotExist();
            assertThat(ofDeadWithoutStart.getParent().getParent()).doesNotExist();
            assertThat(ofEarlierProcessWithMyPid.getParent().getParent())
                    .as("same pid, other start time")
                    .doesNotExist();
            assertThat(ofLive).as("live pid " + live.pid()).exists();
            assertThat(ofLiveStartUnknown).exists();
            assertThat(foreignFile).exists();
            assertThat(foreignDir).exists();
            assertThat(oldLayout).exists();
        } finally {
            live.destroy();
            live.waitFor();
        }
    }

    @Test
    void neverRemovesTheDirectoryOfThisProcess() throws Exception {
        File mine = LocalScratch.processDir(root.toFile());
        Path file = Files.writeString(mine.toPath().resolve("in-use.bin"), "x");
        assertThat(LocalScratch.sweep(root)).isZero();
        assertThat(LocalScratch.processDir(root.toFile())).isEqualTo(mine);
        assertThat(file).exists();
    }

    @Test
    void sweepsARootOncePerProcess() throws Exception {
        LocalScratch.processDir(root.toFile());
        Path later = leftover(root, deadPid(), 5);
        LocalScratch.processDir(root.toFile());
        assertThat(later).as("a root is swept at its first use only").exists();
        assertThat(LocalScratch.sweep(root)).isEqualTo(1);
        assertThat(later).doesNotExist();
    }
}
