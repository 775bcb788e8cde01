package io.strata.storage.util;

import java.util.Iterator;

/** An iterator over a resource (files, readers) that must be closed. */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
    @Override
    void close();
}
