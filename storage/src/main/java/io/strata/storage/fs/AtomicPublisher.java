package io.strata.storage.fs;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/**
 * Makes a file appear whole, at most once: the primitive a commit stands on. Either
 * {@code target} did not exist and now exists with exactly {@code content} (returns true), or it
 * already existed and is left untouched (returns false). Readers never observe a partial file.
 *
 * <p>If an implementation cannot tell whether its publish happened (for example a network error
 * after the request was sent), it must throw {@link IOException} rather than guess; the committer
 * then re-reads the target to decide.
 */
public interface AtomicPublisher {

    boolean publish(Path target, byte[] content) throws IOException;

    /** A short name for logs and errors. */
    String describe();
}
