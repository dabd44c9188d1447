// The generated Client of schemas/tests/everything.fbe (requests and responses, docs/format.md
// 7.6): a response of the request's id completes it, a reject of its id ([reject(Rejected)]) and
// a global reject (*market.Failure) fail it with a RejectException holding the message, a timeout
// fails it with a TimeoutException, reset() with a CancellationException; a message that answers
// no pending request goes to the notify handler; a request without response (Ping) is done once
// sent; a request whose sending fails fails with the stream's IOException. Both models. Run by
// tests/java/junit_java.py.

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.fbetoolkit.fbe.RejectException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.example.all.everything.Accepted;
import org.example.all.everything.Client;
import org.example.all.everything.FinalClient;
import org.example.all.everything.FinalSender;
import org.example.all.everything.Handler;
import org.example.all.everything.Ping;
import org.example.all.everything.PlaceOrder;
import org.example.all.everything.Rejected;
import org.example.all.everything.Sender;
import org.example.market.Failure;
import org.junit.jupiter.api.Test;

class ClientTest {
    final List<Object> notified = new ArrayList<>();
    final Handler notify = new Handler() {
        @Override
        public void onMessage(Object value) {
            notified.add(value);
        }
    };

    static Throwable failure(CompletableFuture<?> f) throws Exception {
        try {
            f.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        return fail("the request did not fail");
    }

    @Test
    void versionedRequests() throws Exception {
        ByteArrayOutputStream toServer = new ByteArrayOutputStream();
        ByteArrayOutputStream toClient = new ByteArrayOutputStream();
        Client client = new Client(toServer, notify);
        Sender server = new Sender(toClient);

        PlaceOrder order = new PlaceOrder();
        order.instrument.symbol = "EURUSD";
        CompletableFuture<Accepted> accepted = client.request(order, 0);
        assertTrue(client.pendingRequests() == 1 && PlaceOrder.fromFbe(toServer.toByteArray()).id.equals(order.id), "sent");
        Accepted other = new Accepted();            // another id: a notification
        server.send(other);
        Accepted answer = new Accepted();
        answer.id = order.id;
        server.send(answer);
        byte[] bytes = toClient.toByteArray();
        client.receive(bytes, 0, bytes.length);
        assertEquals(order.id, accepted.get(5, TimeUnit.SECONDS).id, "response");
        assertTrue(notified.size() == 1 && ((Accepted) notified.get(0)).id.equals(other.id), "notification " + notified);
        assertEquals(0, client.pendingRequests(), "nothing pending");

        PlaceOrder second = new PlaceOrder();
        CompletableFuture<Accepted> refused = client.request(second, 0);
        Rejected no = new Rejected();
        no.id = second.id;
        no.reason = "market closed";
        toClient.reset();
        server.send(no);
        bytes = toClient.toByteArray();
        client.receive(bytes, 0, bytes.length);
        Throwable why = failure(refused);
        assertEquals("market closed", ((Rejected) assertInstanceOf(RejectException.class, why).value()).reason, "reject");

        PlaceOrder third = new PlaceOrder();
        CompletableFuture<Accepted> failed = client.request(third, 0);
        Failure fail = new Failure();
        fail.id = third.id;
        fail.reason = "down";
        toClient.reset();
        server.send(fail);
        bytes = toClient.toByteArray();
        client.receive(bytes, 0, bytes.length);
        why = failure(failed);
        assertInstanceOf(Failure.class, assertInstanceOf(RejectException.class, why).value(), "global reject");

        why = failure(client.request(new PlaceOrder(), 50));
        assertInstanceOf(TimeoutException.class, why, "timeout");
        assertEquals(0, client.pendingRequests(), "nothing pending after the timeout");

        CompletableFuture<Accepted> dropped = client.request(new PlaceOrder(), 0);
        client.reset();
        why = failure(dropped);
        assertInstanceOf(CancellationException.class, why, "reset");

        int before = toServer.size();
        client.request(new Ping());
        assertTrue(toServer.size() > before && client.pendingRequests() == 0, "a request without response");
    }

    @Test
    void failedSend() throws Exception {
        OutputStream closed = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("closed");
            }
        };
        Client client = new Client(closed, notify);
        Throwable why = failure(client.request(new PlaceOrder(), 0));
        assertInstanceOf(IOException.class, why, "the stream's exception");
        assertEquals(0, client.pendingRequests(), "nothing pending");
    }

    @Test
    void finalRequests() throws Exception {
        ByteArrayOutputStream finalToServer = new ByteArrayOutputStream();
        ByteArrayOutputStream finalToClient = new ByteArrayOutputStream();
        FinalClient finalClient = new FinalClient(finalToServer, notify);
        PlaceOrder fourth = new PlaceOrder();
        CompletableFuture<Accepted> finalAccepted = finalClient.request(fourth, 0);
        assertEquals(fourth.id, PlaceOrder.fromFinal(finalToServer.toByteArray()).id, "final sent");
        Accepted finalAnswer = new Accepted();
        finalAnswer.id = fourth.id;
        new FinalSender(finalToClient).send(finalAnswer);
        byte[] bytes = finalToClient.toByteArray();
        finalClient.receive(bytes, 0, bytes.length);
        assertEquals(fourth.id, finalAccepted.get(5, TimeUnit.SECONDS).id, "final response");
    }
}
