// tests/java/generated/names.fbe: keywords, the classes the generated code uses (String, List,
// Reader), its static members (TYPE_ID, KEY_ORDER), the enum classes' members (value, of, or) and
// its locals (v, w, r, b, n, e...) as schema names: everything compiles (javac -Xlint:all -Werror)
// and round-trips in both models. Run by tests/java/junit_java.py.

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import names.Bits;
import names.Kind;
import names.Reader_;
import names.String_;
import names.Weird;
import names.r_;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NamesTest {
    static Reader_ message() {
        Weird v = new Weird();
        v.int_ = 1;
        v.String__.class_ = 2;             // String_ is the class of the struct String
        v.o = 3;
        v.other = "x";
        v.TYPE_ID_ = Kind.new_;
        v.KEY_ORDER_ = Bits.all;
        v.import_ = true;
        v.e = 4;
        v.this_.add(Kind.value_);
        v.this_.add(Kind.of((byte) 9));
        v.data.put("b", 2);
        v.data.put("a", 1);
        v.raw.put(new byte[] {1}, new byte[] {2, 3});
        String_ s = new String_();
        s.class_ = 5;
        v.strings.add(s);
        Reader_ m = new Reader_();
        m.lambda = v;
        return m;
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void roundTrips(boolean versioned) throws Exception {
        Reader_ m = message();
        byte[] data = versioned ? m.toFbe() : m.toFinal();
        Reader_ back = versioned ? Reader_.fromFbe(data) : Reader_.fromFinal(data);
        Weird w = back.lambda;
        assertTrue(w.int_ == 1 && w.String__.class_ == 2 && w.o == 3 && w.other.equals("x") && w.TYPE_ID_ == Kind.new_
                   && w.KEY_ORDER_.equals(Bits.all) && w.import_ && w.e == 4 && w.this_.get(1).value() == 9
                   && w.data.keySet().iterator().next().equals("a") && w.raw.get(new byte[] {1})[1] == 3
                   && w.strings.iterator().next().class_ == 5, "round trip of names: " + w);
        assertArrayEquals(data, versioned ? back.toFbe() : back.toFinal());
    }

    @Test
    void aStructNamedLikeAVariable() throws Exception {
        r_ chain = new r_();
        chain.next = new r_();
        chain.next.x = 6;
        assertEquals(6, r_.fromFbe(chain.toFbe()).next.x);
        assertEquals("value", Kind.value_.toString());
    }
}
