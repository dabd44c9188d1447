package io.github.fbetoolkit.fbe;

import java.io.IOException;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A sender and a receiver with requests (docs/format.md 7.6), what a generated {@code Client} and
 * {@code FinalClient} extend: their {@code request} per [request] message with a response sends it
 * and gives a future of the response of its id, which fails with a {@link RejectException} on one
 * of its rejects, a {@link java.util.concurrent.TimeoutException} when its timeout passes, a
 * {@link java.util.concurrent.CancellationException} on {@link #reset}. Every message that answers
 * no pending request goes to the client's notify handler. Feed it the stream of its model with
 * {@link #receive} (one thread); send from any thread.
 *
 * <p>The getters {@code getSender()}, {@code getReceiver()} and {@code getPendingRequests()} are
 * {@code sender()}, {@code receiver()} and {@code pendingRequests()} again, for Kotlin's property
 * syntax ({@code client.sender}).
 *
 * @param <S> the package's sender of the client's model
 * @param <R> the package's receiver of the client's model
 */
public abstract class FrameClient<S extends FrameSender, R extends FrameReceiver> {
    /** The requests waiting for their response. */
    protected final Requests requests = new Requests();
    private final S sender;
    private final R receiver;

    /** Sends one request's frame. */
    @FunctionalInterface
    protected interface Send {
        /** @throws IOException from the stream */
        void send() throws IOException;
    }

    /**
     * @param sender   where the frames go
     * @param receiver the receiver, made with the pending requests its handler answers
     */
    protected FrameClient(S sender, Function<Requests, R> receiver) {
        this.sender = sender;
        this.receiver = receiver.apply(requests);
    }

    /** @return the sender (send any message) */
    public S sender() {
        return sender;
    }

    /** @return the sender (send any message) */
    public S getSender() {
        return sender;
    }

    /** @return the receiver (limits, errors) */
    public R receiver() {
        return receiver;
    }

    /** @return the receiver (limits, errors) */
    public R getReceiver() {
        return receiver;
    }

    /**
     * Handles one chunk of the stream.
     *
     * @param chunk the chunk
     * @throws FrameException as the receiver's receive
     */
    public void receive(byte[] chunk) throws FrameException {
        receiver.receive(chunk, 0, chunk.length);
    }

    /**
     * Handles one chunk of the stream.
     *
     * @param chunk  the buffer
     * @param offset the chunk's first byte
     * @param length the chunk's size
     * @throws FrameException as the receiver's receive
     */
    public void receive(byte[] chunk, int offset, int length) throws FrameException {
        receiver.receive(chunk, offset, length);
    }

    /** Fails every pending request (CancellationException) and forgets a partial frame. */
    public void reset() {
        requests.reset();
        receiver.reset();
    }

    /** @return the number of requests waiting for their response */
    public int pendingRequests() {
        return requests.size();
    }

    /** @return the number of requests waiting for their response */
    public int getPendingRequests() {
        return requests.size();
    }

    /**
     * Sends a request that waits for its response: registered as pending first, then sent; when the
     * sending fails (an IOException) the future fails with it.
     *
     * @param <T>           the response type
     * @param id            the request's id, the one its response has
     * @param response      the response type
     * @param rejects       the request's reject types the client matches by id
     * @param timeoutMillis after how long the request fails with a TimeoutException (0: never)
     * @param send          sends the request's frame
     * @return the response, or why there is none
     */
    protected <T> CompletableFuture<T> sendRequest(UUID id, Class<T> response, Set<Class<?>> rejects,
                                                   long timeoutMillis, Send send) {
        CompletableFuture<T> future = requests.add(id, response, rejects, timeoutMillis);
        try {
            send.send();
        } catch (IOException e) {
            requests.fail(id, e);
        }
        return future;
    }
}
