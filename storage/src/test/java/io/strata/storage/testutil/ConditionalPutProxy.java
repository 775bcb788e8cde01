package io.strata.storage.testutil;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP proxy in front of {@link S3ProxyServer} that makes it honour {@code If-None-Match: *} on
 * PUT, as AWS S3 does: s3proxy 2.6.0 ignores the header. A conditional PUT of a key whose blob
 * exists in s3proxy's filesystem backend is answered 412 Precondition Failed without reaching
 * s3proxy; otherwise it is forwarded while a lock of the key is held until s3proxy has answered,
 * so two conditional PUTs of one key never both succeed. Everything else is forwarded byte for
 * byte (signatures stay valid: the Host header is not changed), one request per connection.
 */
public final class ConditionalPutProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int backendPort;
    private final File blobs;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final ConcurrentHashMap<String, ReentrantLock> keyLocks = new ConcurrentHashMap<>();
    private final AtomicInteger refused = new AtomicInteger();

    public ConditionalPutProxy(S3ProxyServer backend, File blobs) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        this.backendPort =
                Integer.parseInt(backend.endpoint().substring(backend.endpoint().lastIndexOf(':') + 1));
        this.blobs = blobs;
        pool.execute(this::acceptLoop);
    }

    /** How many conditional PUTs were answered 412. */
    public int refused() {
        return refused.get();
    }

    public String endpoint() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                pool.execute(() -> serve(client));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket client) {
        try (Socket c = client) {
            InputStream in = c.getInputStream();
            byte[] head = readHead(in);
            String text = new String(head, StandardCharsets.ISO_8859_1);
            String[] requestLine = text.substring(0, text.indexOf("\r\n")).split(" ");
            List<String> headers = new ArrayList<>(
                    List.of(text.substring(text.indexOf("\r\n") + 2).split("\r\n")));
            boolean conditional = requestLine[0].equals("PUT")
                    && headers.stream()
                            .anyMatch(h ->
                                    h.toLowerCase(Locale.ROOT).replace(" ", "").equals("if-none-match:*"));
            headers.removeIf(h -> h.toLowerCase(Locale.ROOT).startsWith("connection:") || h.isEmpty());
            headers.add("Connection: close");
            StringBuilder rewritten = new StringBuilder(String.join(" ", requestLine)).append("\r\n");
            headers.forEach(h -> rewritten.append(h).append("\r\n"));
            byte[] newHead = rewritten.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
            if (!conditional) {
                forward(c, newHead);
                return;
            }
            String path = URLDecoder.decode(requestLine[1].split("\\?")[0], StandardCharsets.UTF_8);
            ReentrantLock lock = keyLocks.computeIfAbsent(path, k -> new ReentrantLock());
            lock.lock();
            try {
                if (new File(blobs, path.substring(1)).isFile()) {
                    byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>PreconditionFailed</Code>"
                                    + "<Message>At least one of the pre-conditions you specified did not hold</Message>"
                                    + "<Condition>If-None-Match</Condition></Error>")
                            .getBytes(StandardCharsets.UTF_8);
                    OutputStream out = c.getOutputStream();
                    out.write(("HTTP/1.1 412 Precondition Failed\r\nContent-Type: application/xml\r\nContent-Length: "
                                    + body.length + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.write(body);
                    out.flush();
                    refused.incrementAndGet();
                    return;
                }
                forward(c, newHead);
            } finally {
                lock.unlock();
            }
        } catch (IOException e) {
            // the client or s3proxy went away: the client sees a broken connection, as from a real store
        }
    }

    /** Sends {@code head} and then the rest of the client's bytes to s3proxy; relays its answer to the end. */
    private void forward(Socket client, byte[] head) throws IOException {
        try (Socket backend = new Socket(InetAddress.getByName("127.0.0.1"), backendPort)) {
            OutputStream toBackend = backend.getOutputStream();
            toBackend.write(head);
            toBackend.flush();
            pool.execute(() -> {
                try {
                    client.getInputStream().transferTo(toBackend);
                } catch (IOException e) {
                    // the exchange is over
                }
            });
            backend.getInputStream().transferTo(client.getOutputStream());
            client.getOutputStream().flush();
        }
    }

    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed in the request head");
            }
            head.write(b);
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toByteArray();
    }

    @Override
    public void close() throws IOException {
        server.close();
        pool.shutdownNow();
    }
}
