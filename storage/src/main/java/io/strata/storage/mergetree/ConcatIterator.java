package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.util.CloseableIterator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;

/** Reads the files of a sorted run one after another, opening each only when the previous one is exhausted. */
public final class ConcatIterator implements CloseableIterator<KeyValue> {
    private final Iterator<DataFileMeta> files;
    private final Function<DataFileMeta, CloseableIterator<KeyValue>> opener;
    private CloseableIterator<KeyValue> current;

    public ConcatIterator(List<DataFileMeta> files, Function<DataFileMeta, CloseableIterator<KeyValue>> opener) {
        this.files = files.iterator();
        this.opener = opener;
    }

    @Override
    public boolean hasNext() {
        while (current == null || !current.hasNext()) {
            if (current != null) {
                current.close();
                current = null;
            }
            if (!files.hasNext()) {
                return false;
            }
            current = opener.apply(files.next());
        }
        return true;
    }

    @Override
    public KeyValue next() {
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
