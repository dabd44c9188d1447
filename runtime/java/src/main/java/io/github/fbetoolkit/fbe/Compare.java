package io.github.fbetoolkit.fbe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.UUID;

/**
 * The orders of FBE set elements and map keys (docs/ir.md {@code order}): sets and maps are
 * written in ascending order, as the original's {@code std::set} and {@code std::map}. Types
 * whose Java natural order is the FBE order (signed integers, bool, decimals, generated enums
 * and flags) use the natural order ({@code null} comparator); the others one of these.
 *
 * <p>An order is also the rule of "the same key" (docs/limits.md 4): two elements or keys it
 * compares as 0 are the same (decimals by value, 1.5 and 1.50 alike; floats by value, -0.0 and
 * 0.0 alike; bytes by their content; structs by their [key] fields). The readers refuse a
 * buffer holding a key twice by adding to a {@code TreeSet}/{@code TreeMap} of the order (a
 * hash of other keys: a {@code LinkedHashMap}, whose equality is the order's), and the writers
 * refuse such a value through {@link #distinct(Collection, Comparator, String)} and its kin.
 */
public final class Compare {
    private Compare() {}

    /** Unsigned bytes ({@code byte}, {@code uint8}). */
    public static final Comparator<Byte> U8 = (a, b) -> Integer.compare(a & 0xFF, b & 0xFF);
    /** Unsigned 16-bit integers. */
    public static final Comparator<Short> U16 = (a, b) -> Integer.compare(a & 0xFFFF, b & 0xFFFF);
    /** Unsigned 32-bit integers ({@code uint32}, {@code wchar}). */
    public static final Comparator<Integer> U32 = Integer::compareUnsigned;
    /** Unsigned 64-bit integers ({@code uint64}, {@code timestamp}). */
    public static final Comparator<Long> U64 = Long::compareUnsigned;
    /** {@code char} as C++'s signed char: 0x80..0xFF before 0x00..0x7F. */
    public static final Comparator<Character> CHAR = (a, b) -> Byte.compare((byte) a.charValue(), (byte) b.charValue());
    /** Strings by their bytes ({@link Utf8}). */
    public static final Comparator<String> STRING = Compare::strings;
    /** Bytes, unsigned, shorter prefix first. */
    public static final Comparator<byte[]> BYTES = Arrays::compareUnsigned;
    /** Uuids by their 16 bytes. */
    public static final Comparator<UUID> UUID = Uuids::compare;
    /** Floats by value: -0.0 and 0.0 are the same key (as in C++, Python and Go); NaN last. */
    public static final Comparator<Float> F32 = Compare::f32;
    /** Doubles by value: -0.0 and 0.0 are the same key (as in C++, Python and Go); NaN last. */
    public static final Comparator<Double> F64 = Compare::f64;

    /** The longest hash whose keys out of order are compared pairwise (beyond: a sorted copy). */
    private static final int SMALL = 16;

    /**
     * Floats by value ({@link #F32} without boxing).
     *
     * @param a a float
     * @param b another
     * @return negative, 0 (the same key: equal, or both NaN) or positive
     */
    public static int f32(float a, float b) {
        return a == b ? 0 : Float.compare(a, b);
    }

    /**
     * Doubles by value ({@link #F64} without boxing).
     *
     * @param a a double
     * @param b another
     * @return negative, 0 (the same key: equal, or both NaN) or positive
     */
    public static int f64(double a, double b) {
        return a == b ? 0 : Double.compare(a, b);
    }

    /**
     * Optional [key] fields: an absent one (null) before a present one, present ones in the order
     * {@code order} (null: natural).
     *
     * @param <T>   the type
     * @param order the order of present values
     * @param a     a value or null
     * @param b     another
     * @return negative, 0 (the same key) or positive
     */
    public static <T> int optional(Comparator<? super T> order, T a, T b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return compare(order, a, b);
    }

    private static int strings(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (Character.isSurrogate(x) || Character.isSurrogate(y)) {
                    return Arrays.compareUnsigned(Utf8.bytes(a), Utf8.bytes(b));
                }
                return Character.compare(x, y);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    /**
     * The elements of a set in the order {@code order} (null: natural): the set itself when it
     * is sorted so already, else a sorted copy.
     *
     * @param <T>   the element type
     * @param set   the set
     * @param order the order
     * @return the elements in order
     */
    public static <T> Collection<T> ordered(Collection<T> set, Comparator<? super T> order) {
        return sorted(set, order) ? set : sortedCopy(set, order);
    }

    private static <T> boolean sorted(Collection<T> set, Comparator<? super T> order) {
        return set instanceof SortedSet && ((SortedSet<T>) set).comparator() == order;
    }

    private static <T> List<T> sortedCopy(Collection<T> set, Comparator<? super T> order) {
        List<T> out = new ArrayList<>(set);
        out.sort(order);
        return out;
    }

    /**
     * The entries of a map in the order {@code order} of their keys (null: natural).
     *
     * @param <K>   the key type
     * @param <V>   the value type
     * @param map   the map
     * @param order the order
     * @return the entries in order
     */
    public static <K, V> Collection<Map.Entry<K, V>> ordered(Map<K, V> map, Comparator<? super K> order) {
        return sorted(map, order) ? map.entrySet() : sortedCopy(map, order);
    }

    private static <K, V> boolean sorted(Map<K, V> map, Comparator<? super K> order) {
        return map instanceof SortedMap && ((SortedMap<K, V>) map).comparator() == order;
    }

    private static <K, V> List<Map.Entry<K, V>> sortedCopy(Map<K, V> map, Comparator<? super K> order) {
        List<Map.Entry<K, V>> out = new ArrayList<>(map.entrySet());
        out.sort(order == null ? Compare::natural : (x, y) -> order.compare(x.getKey(), y.getKey()));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static <K, V> int natural(Map.Entry<K, V> x, Map.Entry<K, V> y) {
        return ((Comparable<Object>) x.getKey()).compareTo(y.getKey());
    }

    /**
     * Compares a and b in the order {@code order} (null: natural).
     *
     * @param <T>   the type
     * @param order the order
     * @param a     a value
     * @param b     another
     * @return negative, 0 (the same key) or positive
     */
    @SuppressWarnings("unchecked")
    public static <T> int compare(Comparator<? super T> order, T a, T b) {
        return order == null ? ((Comparable<Object>) a).compareTo(b) : order.compare(a, b);
    }

    /**
     * The elements of a set as the writers write them: in the order {@code order} (null:
     * natural), each once under it (docs/limits.md 4). A {@code SortedSet} of that order is
     * itself; another set is sorted into a copy whose neighbours are compared, one comparison
     * per element.
     *
     * @param <T>   the element type
     * @param set   the set
     * @param order the order, the readers' rule of the same element
     * @param field the field's schema name, for the error
     * @return the elements in order
     * @throws EncodeException when two elements are the same under the order
     */
    public static <T> Collection<T> distinct(Collection<T> set, Comparator<? super T> order, String field) {
        if (sorted(set, order)) {
            return set;     // a sorted set holds each element once under its order
        }
        List<T> out = sortedCopy(set, order);
        for (int k = 1; k < out.size(); k++) {
            if (compare(order, out.get(k - 1), out.get(k)) == 0) {
                throw same("two elements are the same", out.get(k - 1), out.get(k), field);
            }
        }
        return out;
    }

    /**
     * The entries of a map as the writers write them: in the order {@code order} of their keys
     * (null: natural), each key once under it (docs/limits.md 4); as {@link
     * #distinct(Collection, Comparator, String)}.
     *
     * @param <K>   the key type
     * @param <V>   the value type
     * @param map   the map
     * @param order the order, the readers' rule of the same key
     * @param field the field's schema name, for the error
     * @return the entries in order
     * @throws EncodeException when two keys are the same under the order
     */
    public static <K, V> Collection<Map.Entry<K, V>> distinct(Map<K, V> map, Comparator<? super K> order, String field) {
        if (sorted(map, order)) {
            return map.entrySet();
        }
        List<Map.Entry<K, V>> out = sortedCopy(map, order);
        for (int k = 1; k < out.size(); k++) {
            K a = out.get(k - 1).getKey();
            K b = out.get(k).getKey();
            if (compare(order, a, b) == 0) {
                throw same("two entries have the same key", a, b, field);
            }
        }
        return out;
    }

    /**
     * The entries of a hash as the writers write them: in the map's own order, each key once
     * under {@code order} (docs/limits.md 4). For keys whose Java equality is not the readers'
     * rule (bytes, decimals, floats, structs, which may be of subclasses): a {@code SortedMap}
     * of that order is taken as it is, keys in increasing order cost one comparison each, other
     * orders are compared pairwise up to 16 keys and through a sorted copy beyond.
     *
     * @param <K>   the key type
     * @param <V>   the value type
     * @param map   the hash
     * @param order the order, the readers' rule of the same key
     * @param field the field's schema name, for the error
     * @return the entries in the map's order
     * @throws EncodeException when two keys are the same under the order
     */
    public static <K, V> Collection<Map.Entry<K, V>> distinctHash(Map<K, V> map, Comparator<? super K> order,
            String field) {
        int n = map.size();
        if (n < 2 || sorted(map, order)) {
            return map.entrySet();
        }
        Iterator<K> keys = map.keySet().iterator();
        K last = keys.next();
        while (keys.hasNext()) {
            K k = keys.next();
            if (compare(order, last, k) >= 0) {
                repeated(map, order, field);
                break;
            }
            last = k;
        }
        return map.entrySet();
    }

    /** Refuses a hash whose keys out of order hold one twice. */
    @SuppressWarnings("unchecked")
    private static <K, V> void repeated(Map<K, V> map, Comparator<? super K> order, String field) {
        if (map.size() <= SMALL) {
            int k = 0;
            for (K b : map.keySet()) {
                int i = 0;
                for (K a : map.keySet()) {
                    if (i++ == k) {
                        break;
                    }
                    if (compare(order, a, b) == 0) {
                        throw same("two entries have the same key", a, b, field);
                    }
                }
                k++;
            }
            return;
        }
        K[] sorted = (K[]) map.keySet().toArray();
        Arrays.sort(sorted, order == null ? (a, b) -> compare(null, a, b) : order);
        for (int k = 1; k < sorted.length; k++) {
            if (compare(order, sorted[k - 1], sorted[k]) == 0) {
                throw same("two entries have the same key", sorted[k - 1], sorted[k], field);
            }
        }
    }

    private static EncodeException same(String what, Object a, Object b, String field) {
        return new EncodeException(EncodeException.Kind.DUPLICATE_KEY, what + ", " + text(a) + " and " + text(b), field);
    }

    /** A set element or map key in an error: bytes in hexadecimal, strings quoted, long texts cut. */
    private static String text(Object v) {
        String s = v instanceof byte[] ? "0x" + HexFormat.of().formatHex((byte[]) v)
                : v instanceof String ? "\"" + v + "\"" : String.valueOf(v);
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}
