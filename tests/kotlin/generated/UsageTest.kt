// proto.Account of schemas/trade.fbe as a Kotlin user writes it (generated with
// --package-prefix=trade, beside ../shared's com.chronoxor.proto): named arguments over the schema's
// defaults, value-class flags and enums, a nullable optional, a MutableList, equality over the [key]
// field, the text form, both models and JSON, a reused Writer, reading into a reused value, and a
// DecodeException naming type, field path and offset. Run by tests/kotlin/junit_kotlin.py.

import io.github.fbetoolkit.fbe.DecodeException
import io.github.fbetoolkit.fbe.Limits
import io.github.fbetoolkit.fbe.Writer
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import trade.com.chronoxor.proto.Account
import trade.com.chronoxor.proto.Balance
import trade.com.chronoxor.proto.Order
import trade.com.chronoxor.proto.OrderSide
import trade.com.chronoxor.proto.OrderType
import trade.com.chronoxor.proto.State

class UsageTest {
    private fun account(): Account {
        val a = Account(
            id = 1,
            name = "Test",
            wallet = Balance(currency = "USD", amount = 1000.0),
            asset = Balance(),
        )
        a.orders += Order(id = 7, symbol = "EURUSD", side = OrderSide.sell, type = OrderType.limit, price = 1.5)
        return a
    }

    @Test
    fun defaultsAndFlags() {
        val empty = Account()
        assertTrue(empty.state == (State.initialized or State.bad) && empty.state.value.toInt() == 11) {
            "defaults: ${empty.state}"
        }
        assertTrue(empty.asset == null && empty.orders.isEmpty() && empty.name.isEmpty()) { "empty defaults" }
        assertTrue(empty.state.has(State.bad) && !empty.state.has(State.good)) { "flags: ${empty.state}" }
        assertEquals("invalid|initialized|broken|bad", empty.state.toString())
        assertEquals("initialized|calculated|good", State.good.toString())
    }

    @Test
    fun bothModelsJsonAndTheTextForm() {
        val a = account()
        val data = a.toFbe()
        val b = Account.fromFbe(data)
        assertTrue(b.orders[0].side == OrderSide.sell && b.orders[0].symbol == "EURUSD" && b.orders[0].price == 1.5) {
            "round trip: $b"
        }
        assertTrue(b == a && b.hashCode() == a.hashCode()) { "equal by the [key] id" }
        assertTrue(b != Account(id = 2, name = "Test")) { "not equal by the [key] id" }
        assertEquals(
            "Account(id=1,name=\"Test\",state=invalid|initialized|broken|bad," +
                "wallet=Balance(currency=\"USD\",amount=1000),asset=Balance(currency=\"\",amount=0)," +
                "orders=[1][Order(id=7,symbol=\"EURUSD\",side=sell,type=limit,price=1.5,volume=0)])",
            b.toString(),
        )
        assertTrue(OrderSide(9u).toString() == "<unknown>" && OrderSide(9u).value.toInt() == 9) {
            "undeclared enum values are kept"
        }
        assertTrue(OrderSide.sell > OrderSide.buy) { "enums order by value" }
        assertEquals(1000.0, Account.fromFinal(a.toFinal()).wallet.amount, "final round trip")
        val json = a.toJson()
        val start = "{\"id\":1,\"name\":\"Test\",\"state\":11,\"wallet\":{\"currency\":\"USD\",\"amount\":1000.0},"
        assertTrue(json.startsWith(start)) { "JSON: $json" }
        assertArrayEquals(data, Account.fromJson(json).toFbe(), "JSON round trip")
        val twice = assertThrows(DecodeException::class.java) { Account.fromJson("{\"id\":1,\"id\":2}") }
        assertEquals("proto.Account", twice.type(), twice.message)
        val w = Writer()
        val size = a.writeFbe(w)
        assertArrayEquals(data, w.buffer().copyOf(size), "writeFbe into a reused writer")
        assertEquals("Test", Account.fromFbe(w.buffer(), 0, size, Limits.DEFAULT.withMaxDepth(4)).name, "limits")
        Account.verifyFbe(data)
    }

    @Test
    fun readingIntoAReusedValueKeepsItsObjects() {
        // while the shape does not grow
        val a = account()
        val data = a.toFbe()
        val reused = Account.fromFbe(data)
        val kept = reused.orders[0]
        val asset = reused.asset
        val orders = reused.orders
        a.orders += Order(id = 8)
        reused.readFbe(a.toFbe())
        assertSame(orders, reused.orders)
        assertSame(kept, reused.orders[0])
        assertSame(asset, reused.asset)
        assertEquals(2, reused.orders.size, "a second order added")
        a.orders.removeAt(1)
        a.asset = null
        reused.readFinal(a.toFinal())
        assertSame(orders, reused.orders)
        assertSame(kept, reused.orders[0])
        assertTrue(reused.orders.size == 1 && reused.asset == null) { "shrunk: $reused" }
        assertEquals(a.toString(), reused.toString(), "read into a reused value")
        assertThrows(DecodeException::class.java) { reused.readFbe(data.copyOf(data.size - 1)) }
        assertEquals(Account().toString(), reused.toString(), "reset after an error")
    }

    @Test
    fun aCorruptLengthIsRefusedWithTheFieldPath() {
        val data = account().toFbe()
        data[data.size - 10] = 99 // the order's symbol length: beyond the root
        val read = assertThrows(DecodeException::class.java) { Account.fromFbe(data) }
        val at = "string of 99 bytes beyond the end of the buffer (proto.Account.orders[0].symbol, offset "
        assertTrue(read.message!!.startsWith(at)) { read.message!! }
        val verify = assertThrows(DecodeException::class.java) { Account.verifyFbe(data) }
        assertEquals("orders[0].symbol", verify.path())
        assertEquals("proto.Account", verify.type())
    }
}
