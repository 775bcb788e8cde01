package io.strata.storage.fs;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import org.apache.hadoop.fs.Path;

/**
 * Local file system: write a hidden temporary file, then {@code link(2)} it to the target name.
 * link fails if the target exists and is atomic, which rename(2) is not for this purpose (it
 * replaces an existing target).
 */
final class HardLinkPublisher implements AtomicPublisher {
    private final FileIO io;

    HardLinkPublisher(FileIO io) {
        this.io = io;
    }

    @Override
    public boolean publish(Path target, byte[] content) throws IOException {
        Path tmp = FileIO.tempSibling(target);
        io.writeNew(tmp, content);
        try {
            Files.createLink(LocalFileIO.local(target), LocalFileIO.local(tmp));
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } finally {
            io.delete(tmp);
        }
    }

    @Override
    public String describe() {
        return "local hard link";
    }
}
