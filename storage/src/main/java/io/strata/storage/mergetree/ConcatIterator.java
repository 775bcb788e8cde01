package io.strata.storage.mergetree;

import io.strata.storage.util.CloseableIterator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * Reads sources one after another (the files of a sorted run, the splits of a scan, the
 * changelog files of some snapshots), opening each only when the previous one is exhausted, so
 * at most one is open at a time.
 */
public final class ConcatIterator<S, T> implements CloseableIterator<T> {
    private final Iterator<S> sources;
    private final Function<S, CloseableIterator<T>> opener;
    private CloseableIterator<T> current;

    public ConcatIterator(Iterator<S> sources, Function<S, CloseableIterator<T>> opener) {
        this.sources = sources;
        this.opener = opener;
    }

    public ConcatIterator(List<S> sources, Function<S, CloseableIterator<T>> opener) {
        this(sources.iterator(), opener);
    }

    @Override
    public boolean hasNext() {
        while (current == null || !current.hasNext()) {
            if (current != null) {
                current.close();
                current = null;
            }
            if (!sources.hasNext()) {
                return false;
            }
            current = opener.apply(sources.next());
        }
        return true;
    }

    @Override
    public T next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return current.next();
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
