package io.github.fbetoolkit.fbe;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The requests of a client waiting for their response, by id (docs/format.md 7.6): conventions
 * on top of a sender and a receiver, nothing on the wire. A request completes with the message
 * of its response type and the same {@code id}, or fails with a {@link RejectException} on one
 * of its rejects of that id, with a {@link java.util.concurrent.TimeoutException} when its timeout
 * passes (the original's "Timeout!"), or with a {@link CancellationException} on {@link #reset}
 * (a connection that closed). Safe for concurrent use: requests are sent from any thread while
 * one thread feeds the client's receiver. Generated clients use it.
 */
public final class Requests {
    /** One pending request: its future and the types that answer it. */
    private record Pending(CompletableFuture<Object> future, Class<?> response, Set<Class<?>> rejects) {}

    private final ConcurrentHashMap<UUID, Pending> pending = new ConcurrentHashMap<>();

    /**
     * Registers a request of id before it is sent.
     *
     * @param <R>          the response type
     * @param id           the request's id
     * @param response     the response type
     * @param rejects      its reject types
     * @param timeoutMillis after how long it fails (0: never)
     * @return what completes with the response
     */
    public <R> CompletableFuture<R> add(UUID id, Class<R> response, Set<Class<?>> rejects, long timeoutMillis) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        Pending p = new Pending(future, response, rejects);
        Pending old = pending.put(id, p);
        if (old != null) {
            old.future.completeExceptionally(new IllegalStateException("another request was sent with the id " + id));
        }
        if (timeoutMillis > 0) {
            future.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS);
        }
        // what the caller gets completes after the request left the pending ones (a timeout
        // completes the future on the timer's thread: pendingRequests() is 0 once it is seen)
        return future.whenComplete((v, e) -> pending.remove(id, p)).thenApply(response::cast);
    }

    /**
     * Fails a registered request whose sending failed.
     *
     * @param id    the request's id
     * @param cause why
     */
    public void fail(UUID id, Throwable cause) {
        Pending p = pending.remove(id);
        if (p != null) {
            p.future.completeExceptionally(cause);
        }
    }

    /**
     * Completes the pending request of id with v when v is its response, or fails it when v is one
     * of its rejects; a global reject (listed as {@code *E}) fails the request of id whatever its
     * type.
     *
     * @param id     the message's id
     * @param v      the message
     * @param global whether v's type is a global reject
     * @return whether a request took v (generated clients hand the others to their handler)
     */
    public boolean answer(UUID id, Object v, boolean global) {
        Pending p = pending.get(id);
        if (p == null) {
            return false;
        }
        if (p.response.isInstance(v) && v.getClass() == p.response) {
            return pending.remove(id, p) && p.future.complete(v);
        }
        if (global || p.rejects.contains(v.getClass())) {
            return pending.remove(id, p) && p.future.completeExceptionally(new RejectException(v));
        }
        return false;
    }

    /** Fails every pending request with a CancellationException. */
    public void reset() {
        fail(new CancellationException("client reset: the request was not answered"));
    }

    /**
     * Fails every pending request with {@code why}: why the connection ended (the other end's model
     * notice, a {@link FrameException} naming both models: docs/format.md 7.4).
     *
     * @param why what the requests' futures complete exceptionally with
     */
    public void fail(Throwable why) {
        List<Pending> all = new ArrayList<>(pending.values());
        pending.clear();
        for (Pending p : all) {
            p.future.completeExceptionally(why);
        }
    }

    /** @return the number of pending requests */
    public int size() {
        return pending.size();
    }
}
