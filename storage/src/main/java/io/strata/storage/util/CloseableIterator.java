package io.strata.storage.util;

import java.util.Iterator;

/** An iterator over a resource (files, readers) that must be closed. */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {
    @Override
    void close();

    /** {@code it} as a closeable iterator that runs {@code onClose} when closed. */
    static <T> CloseableIterator<T> wrap(Iterator<T> it, Runnable onClose) {
        return new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public T next() {
                return it.next();
            }

            @Override
            public void close() {
                onClose.run();
            }
        };
    }
}
