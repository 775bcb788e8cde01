package io.strata.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Renders rows as aligned columns for terminal output. */
final class TextTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    TextTable(String... header) {
        this.header = List.of(header);
    }

    void add(Object... cells) {
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(String.valueOf(c));
        }
        rows.add(r);
    }

    void print(PrintWriter out) {
        int[] w = new int[header.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = header.get(i).length();
            for (List<String> r : rows) {
                w[i] = Math.max(w[i], r.get(i).length());
            }
        }
        line(out, header, w);
        for (List<String> r : rows) {
            line(out, r, w);
        }
        out.flush();
    }

    private static void line(PrintWriter out, List<String> cells, int[] w) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                sb.append("  ");
            }
            String c = cells.get(i);
            sb.append(c);
            if (i + 1 < cells.size()) {
                sb.append(" ".repeat(w[i] - c.length()));
            }
        }
        out.println(sb);
    }
}
