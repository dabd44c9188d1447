// A request whose response has no id field (tests/java/generated/requests.fbe): the Client waits
// for the response as docs/format.md 7.6 says, as the Go and TypeScript Clients do (base.client_answers
// decides it for every target): request(value, timeoutMillis) gives a future, the request is pending
// until its timeout or reset(), and the response, which carries no id to match it by, goes to the
// notify handler. Run by tests/java/junit_java.py.

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import requests.Ask;
import requests.Client;
import requests.Handler;
import requests.Pong;
import requests.Sender;

class RequestsTest {
    final List<Object> notified = new ArrayList<>();
    final Handler notify = new Handler() {
        @Override
        public void onMessage(Object value) {
            notified.add(value);
        }
    };

    static Throwable failure(CompletableFuture<Pong> f) throws Exception {
        try {
            f.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the request did not fail");
    }

    @Test
    void waitsForAResponseWithoutId() throws Exception {
        ByteArrayOutputStream toServer = new ByteArrayOutputStream();
        ByteArrayOutputStream toClient = new ByteArrayOutputStream();
        Client client = new Client(toServer, notify);
        Ask ask = new Ask();
        CompletableFuture<Pong> pong = client.request(ask, 0);
        assertEquals(ask.id, Ask.fromFbe(toServer.toByteArray()).id, "sent");
        assertEquals(1, client.pendingRequests(), "pending");

        Pong answer = new Pong();
        answer.n = 7;
        new Sender(toClient).send(answer);
        byte[] bytes = toClient.toByteArray();
        client.receive(bytes, 0, bytes.length);
        assertEquals(1, notified.size(), "the response without id goes to notify");
        assertEquals(7, ((Pong) notified.get(0)).n);
        assertEquals(1, client.pendingRequests(), "still pending: nothing answered it");

        client.reset();
        assertInstanceOf(CancellationException.class, failure(pong), "reset");
        assertInstanceOf(TimeoutException.class, failure(client.request(new Ask(), 50)), "timeout");
        assertEquals(0, client.pendingRequests(), "nothing pending");
    }
}
