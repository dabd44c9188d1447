package io.github.fbetoolkit.fbe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.UUID;

/**
 * The orders of FBE set elements and map keys (docs/ir.md {@code order}): sets and maps are
 * written in ascending order, as the original's {@code std::set} and {@code std::map}. Types
 * whose Java natural order is the FBE order (signed integers, bool, floats, decimals, generated
 * enums and flags) use the natural order ({@code null} comparator); the others one of these.
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
        if (set instanceof SortedSet && ((SortedSet<T>) set).comparator() == order) {
            return set;
        }
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
        if (map instanceof SortedMap && ((SortedMap<K, V>) map).comparator() == order) {
            return map.entrySet();
        }
        List<Map.Entry<K, V>> out = new ArrayList<>(map.entrySet());
        out.sort(order == null ? Compare::natural : (x, y) -> order.compare(x.getKey(), y.getKey()));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static <K, V> int natural(Map.Entry<K, V> x, Map.Entry<K, V> y) {
        return ((Comparable<Object>) x.getKey()).compareTo(y.getKey());
    }
}
