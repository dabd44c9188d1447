// The Kotlin rows of the Java benchmark (docs/benchmarks.md "Java"): fbec --kotlin's code of
// schemas/trade.fbe over the same runtime, generated under fbebench.kotlin (fbec --package-prefix, so
// that it and fbec --java's com.chronoxor.proto share one JVM), each row on the Kotlin domain
// object as a Kotlin program holds it and under the rules of the Java rows: a reused Writer or
// JsonWriter, reading into the reused Account where the API can. make bench-java compiles this after
// the Java project; Rows.kotlin() finds it by name.
package fbebench

import fbebench.kotlin.com.chronoxor.proto.Account
import fbebench.kotlin.com.chronoxor.proto.Balance
import fbebench.kotlin.com.chronoxor.proto.Order
import fbebench.kotlin.com.chronoxor.proto.OrderSide
import fbebench.kotlin.com.chronoxor.proto.OrderType
import fbebench.kotlin.com.chronoxor.proto.State
import io.github.fbetoolkit.fbe.JsonWriter
import io.github.fbetoolkit.fbe.Limits
import io.github.fbetoolkit.fbe.Writer
import com.chronoxor.proto.Account as JavaAccount
import com.chronoxor.proto.Balance as JavaBalance
import com.chronoxor.proto.Order as JavaOrder
import com.chronoxor.proto.OrderSide as JavaOrderSide
import com.chronoxor.proto.OrderType as JavaOrderType
import com.chronoxor.proto.State as JavaState

/** A row over the Kotlin Account: the accounts of Domain converted to it and back (not timed). */
abstract class KotlinRow(id: String, name: String) : Row<Account>(id, name) {
    override fun of(a: JavaAccount): Account = Account(
        id = a.id,
        name = a.name,
        state = State(a.state.value().toUByte()),
        wallet = balance(a.wallet),
        asset = a.asset?.let(::balance),
        orders = a.orders.mapTo(ArrayList()) {
            Order(
                it.id,
                it.symbol,
                OrderSide(it.side.value().toUByte()),
                OrderType(it.type.value().toUByte()),
                it.price,
                it.volume,
            )
        },
    )

    override fun account(a: Account): JavaAccount {
        val j = JavaAccount()
        j.id = a.id
        j.name = a.name
        j.state = JavaState.of(a.state.value.toByte())
        j.wallet = javaBalance(a.wallet)
        j.asset = a.asset?.let(::javaBalance)
        for (o in a.orders) {
            val x = JavaOrder()
            x.id = o.id
            x.symbol = o.symbol
            x.side = JavaOrderSide.of(o.side.value.toByte())
            x.type = JavaOrderType.of(o.type.value.toByte())
            x.price = o.price
            x.volume = o.volume
            j.orders.add(x)
        }
        return j
    }

    override fun fresh(): Account = Account()

    /** Domain.touch on the Kotlin Account: every field read. */
    override fun touch(a: Account): Int {
        var n = a.id + a.name.length + a.state.value.toInt() + a.wallet.currency.length + a.wallet.amount.toInt()
        val asset = a.asset
        if (asset != null) {
            n += asset.currency.length + asset.amount.toInt()
        }
        val orders = a.orders
        for (i in 0 until orders.size) {
            val o = orders[i]
            n += o.id + o.symbol.length + o.side.value.toInt() + o.type.value.toInt()
            n += o.price.toInt() + o.volume.toInt()
        }
        return n
    }

    private companion object {
        fun balance(b: JavaBalance) = Balance(b.currency, b.amount)

        fun javaBalance(b: Balance): JavaBalance {
            val j = JavaBalance()
            j.currency = b.currency
            j.amount = b.amount
            return j
        }
    }
}

object KotlinRows {
    /** The Kotlin rows, in the order of Rows.KOTLIN. */
    @JvmStatic
    fun all(): List<Row<*>> = listOf(versioned(), final(), json())

    /** The versioned model: writeFbe into a reused Writer, readFbe into the reused Account, verifyFbe. */
    private fun versioned(): Row<*> = object : KotlinRow("kotlin", "FBE Kotlin (ours)") {
        val w = Writer()

        override fun serialize(a: Account): Int {
            val n = a.writeFbe(w)
            out = w.buffer()
            return n
        }

        override fun deserialize(data: ByteArray, offset: Int, length: Int, reuse: Account): Account {
            reuse.readFbe(data, offset, length, Limits.DEFAULT)
            return reuse
        }

        override fun hasVerify() = true

        override fun verify(data: ByteArray, offset: Int, length: Int) =
            Account.verifyFbe(data, offset, length, Limits.DEFAULT)
    }

    /** The final model: writeFinal, readFinal, verifyFinal. */
    private fun final(): Row<*> = object : KotlinRow("kotlin-final", "FBE Kotlin final (ours)") {
        val w = Writer()

        override fun serialize(a: Account): Int {
            val n = a.writeFinal(w)
            out = w.buffer()
            return n
        }

        override fun deserialize(data: ByteArray, offset: Int, length: Int, reuse: Account): Account {
            reuse.readFinal(data, offset, length, Limits.DEFAULT)
            return reuse
        }

        override fun hasVerify() = true

        override fun verify(data: ByteArray, offset: Int, length: Int) =
            Account.verifyFinal(data, offset, length, Limits.DEFAULT)
    }

    /** JSON (fbec --kotlin --json): writeJson into a reused JsonWriter, fromJson(ByteArray) (a new value per read). */
    private fun json(): Row<*> = object : KotlinRow("kotlin-json", "FBE Kotlin JSON (ours)") {
        val j = JsonWriter()

        override fun serialize(a: Account): Int {
            val n = a.writeJson(j)
            out = j.buffer()
            return n
        }

        override fun deserialize(data: ByteArray, offset: Int, length: Int, reuse: Account): Account {
            val text = if (offset == 0 && length == data.size) data else data.copyOfRange(offset, offset + length)
            return Account.fromJson(text)
        }
    }
}
