/*
 * fbe_accel: the optional C accelerator of the fbe gem (docs/ruby.md, "The C accelerator").
 *
 * Fbe::Accel.to_fbe(value) and Fbe::Accel.to_final(value) write the versioned and the final root
 * of a generated struct value in one call each, walking the value's fields with the per-class
 * layout that lib/fbe/accel.rb derives from the generated class (Fbe::Accel.plan: each field's
 * instance variable, slot offset and codec kind). They write the bytes the pure-Ruby writers
 * write and accept a subset of what those accept: on any value they are not sure of (a wrong
 * class, an integer out of range, a string of another encoding, a number that is no Float or
 * Integer, a class without a layout...) they stop and return nil, and Fbe::Value#to_fbe or
 * #to_final writes the value again in pure Ruby, which raises the pure-Ruby error. Fields of the
 * kinds they do not handle (decimal, uuid, maps, sets) are written by their Ruby codec
 * (codec.write(w, base, pos, value), codec.fwrite(w, value)) into the same buffer, and its errors
 * propagate as they are. Nothing is allocated outside Ruby objects: the buffer is a String, the
 * plans are Arrays.
 */
#include <ruby.h>
#include <ruby/encoding.h>
#include <string.h>

/* Codec kinds of a plan (lib/fbe/accel.rb: Fbe::Accel::INT ... CALL). */
enum {
    K_INT = 1,    /* [K_INT, size, signed] */
    K_BOOL,       /* [K_BOOL, 1] */
    K_FLOAT,      /* [K_FLOAT, 4] */
    K_DOUBLE,     /* [K_DOUBLE, 8] */
    K_STRING,     /* [K_STRING, 4] */
    K_BYTES,      /* [K_BYTES, 4] */
    K_ENUM,       /* [K_ENUM, size, signed, class]: an enum or flags value, or an Integer */
    K_STRUCT,     /* [K_STRUCT, 4, class] */
    K_OPTIONAL,   /* [K_OPTIONAL, 5, element] */
    K_VECTOR,     /* [K_VECTOR, 4, element]: vector and list */
    K_ARRAY,      /* [K_ARRAY, size, element, length] */
    K_CALL        /* [K_CALL, size, codec]: the Ruby codec writes the slot */
};

/* A struct nested deeper than this (a value holding itself through a derived class) is left to
 * the pure-Ruby writer. */
#define MAX_LEVELS 128

#define BAIL (-1L)

static VALUE m_accel;
static VALUE c_writer;
static VALUE plans; /* class => plan, or false for a class without one */
static ID id_plan, id_write, id_fwrite, id_value, id_buffer;
static int utf8, binary; /* encoding indexes */

/* The output: a binary String written through its pointer, its length kept here and set once at
 * the end (rb_str_set_len looks the encoding up on every call), and before a Ruby codec appends to
 * it through writer, an Fbe::Writer over the same String. */
struct out {
    VALUE buf;
    VALUE writer;
    char *ptr;
    long len;
    long capa;
};

static void out_init(struct out *o)
{
    o->buf = rb_str_buf_new(256);
    rb_enc_associate_index(o->buf, binary);
    o->writer = Qnil;
    o->ptr = RSTRING_PTR(o->buf);
    o->len = 0;
    o->capa = (long)rb_str_capacity(o->buf);
}

/* The String's length set to what was written (before Ruby code sees it, and at the end). */
static void out_sync(struct out *o)
{
    rb_str_set_len(o->buf, o->len);
}

/* What Ruby code appended to the String. */
static void out_resync(struct out *o)
{
    o->ptr = RSTRING_PTR(o->buf);
    o->len = RSTRING_LEN(o->buf);
    o->capa = (long)rb_str_capacity(o->buf);
}

static void put_le(struct out *o, long pos, unsigned long long v, int size)
{
    unsigned char *p = (unsigned char *)o->ptr + pos;
    for (int i = 0; i < size; i++) {
        p[i] = (unsigned char)(v >> (8 * i));
    }
}

/* Room for n more bytes, the capacity at least doubled when it grows (not one realloc per append). */
static void reserve(struct out *o, long n)
{
    if (o->len + n <= o->capa) return;
    out_sync(o);
    rb_str_modify_expand(o->buf, (o->len + n > 2 * o->capa ? o->len + n : 2 * o->capa) - o->len);
    out_resync(o);
}

/* Appends n bytes; returns their position. */
static long append(struct out *o, const char *bytes, long n)
{
    reserve(o, n);
    long at = o->len;
    memcpy(o->ptr + at, bytes, (size_t)n);
    o->len = at + n;
    return at;
}

/* Appends n zero bytes; returns their position. */
static long grow(struct out *o, long n)
{
    reserve(o, n);
    long at = o->len;
    memset(o->ptr + at, 0, (size_t)n);
    o->len = at + n;
    return at;
}

static int plan_int(VALUE plan, long i)
{
    return (int)FIX2LONG(RARRAY_AREF(plan, i));
}

/* The bits of an Integer value of a size-byte integer type, or 0 when it is out of the type's range. */
static int integer_bits(VALUE v, int size, int is_signed, unsigned long long *bits)
{
    if (FIXNUM_P(v)) {
        long x = FIX2LONG(v);
        if (size == 8) {
            if (!is_signed && x < 0) return 0;
        } else if (is_signed) {
            long top = 1L << (8 * size - 1);
            if (x < -top || x >= top) return 0;
        } else if (x < 0 || x >= (1L << (8 * size))) {
            return 0;
        }
        *bits = (unsigned long long)x;
        return 1;
    }
    if (size != 8 || !RB_TYPE_P(v, T_BIGNUM)) return 0;
    unsigned long long word = 0;
    int sign = rb_integer_pack(v, &word, 1, sizeof(word), 0,
                               INTEGER_PACK_LSWORD_FIRST | INTEGER_PACK_NATIVE_BYTE_ORDER | INTEGER_PACK_2COMP);
    if (sign == 2 || sign == -2) return 0;
    int top = (int)(word >> 63);
    if (is_signed ? (sign < 0) != (top == 1) : sign < 0) return 0;
    *bits = word;
    return 1;
}

static long write_struct(struct out *o, VALUE value, int level);

/* The Fbe::Writer over the buffer, made when a Ruby codec first needs it. */
static VALUE writer(struct out *o)
{
    if (NIL_P(o->writer)) {
        o->writer = rb_obj_alloc(c_writer);
        rb_ivar_set(o->writer, id_buffer, o->buf);
    }
    out_sync(o);
    return o->writer;
}

/* The plan of the value's class (Fbe::Accel.plan makes it the first time), or Qfalse. */
static VALUE plan_of(VALUE value)
{
    VALUE klass = rb_obj_class(value);
    VALUE plan = rb_hash_lookup2(plans, klass, Qundef);
    if (plan == Qundef) plan = rb_funcall(m_accel, id_plan, 1, klass);
    return RB_TYPE_P(plan, T_ARRAY) ? plan : Qfalse;
}

/* The little-endian bytes of a number that is a Float or a Fixnum as a float or double, or 0. */
static int real_bits(VALUE v, int kind, unsigned long long *bits)
{
    double d;
    if (RB_FLOAT_TYPE_P(v)) d = RFLOAT_VALUE(v);
    else if (FIXNUM_P(v)) d = (double)FIX2LONG(v);
    else return 0;
    if (kind == K_FLOAT) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        *bits = u;
    } else {
        uint64_t u;
        memcpy(&u, &d, 8);
        *bits = u;
    }
    return 1;
}

/* The wire integer of an enum or flags value of the codec's class, or of an Integer, or 0. */
static int enum_bits(VALUE codec, VALUE v, unsigned long long *bits)
{
    if (!FIXNUM_P(v)) {
        if (!RTEST(rb_obj_is_kind_of(v, RARRAY_AREF(codec, 3)))) return 0;
        v = rb_ivar_get(v, id_value);
    }
    return integer_bits(v, plan_int(codec, 1), plan_int(codec, 2), bits);
}

/* The bytes of a String the codec writes as it is (a string: UTF-8 or binary), or 0. */
static int text_ok(VALUE codec, VALUE v)
{
    if (!RB_TYPE_P(v, T_STRING) || (unsigned long)RSTRING_LEN(v) > 0xFFFFFFFFUL) return 0;
    if (plan_int(codec, 0) == K_BYTES) return 1;
    int enc = ENCODING_GET(v);
    return enc == utf8 || enc == binary;
}

static void append_u32(struct out *o, unsigned long n)
{
    char bytes[4];
    for (int i = 0; i < 4; i++) bytes[i] = (char)(n >> (8 * i));
    append(o, bytes, 4);
}

/* Writes value into the slot at pos (offsets counted from base), its out-of-line data appended. */
static long write_slot(struct out *o, long base, long pos, VALUE codec, VALUE v, int level)
{
    unsigned long long bits;
    switch (plan_int(codec, 0)) {
    case K_INT: {
        int size = plan_int(codec, 1);
        if (!integer_bits(v, size, plan_int(codec, 2), &bits)) return BAIL;
        put_le(o, pos, bits, size);
        return 0;
    }
    case K_BOOL:
        o->ptr[pos] = RTEST(v) ? 1 : 0;
        return 0;
    case K_FLOAT:
    case K_DOUBLE:
        if (!real_bits(v, plan_int(codec, 0), &bits)) return BAIL;
        put_le(o, pos, bits, plan_int(codec, 1));
        return 0;
    case K_STRING:
    case K_BYTES: {
        if (!text_ok(codec, v)) return BAIL;
        long n = RSTRING_LEN(v);
        put_le(o, pos, (unsigned long long)(o->len - base), 4);
        reserve(o, 4 + n);
        append_u32(o, (unsigned long)n);
        append(o, RSTRING_PTR(v), n);
        return 0;
    }
    case K_ENUM:
        if (!enum_bits(codec, v, &bits)) return BAIL;
        put_le(o, pos, bits, plan_int(codec, 1));
        return 0;
    case K_STRUCT: {
        if (!RTEST(rb_obj_is_kind_of(v, RARRAY_AREF(codec, 2)))) return BAIL;
        long q = write_struct(o, v, level + 1);
        if (q < 0) return BAIL;
        put_le(o, pos, (unsigned long long)(q - base), 4);
        return 0;
    }
    case K_OPTIONAL: {
        if (NIL_P(v)) return 0;
        VALUE element = RARRAY_AREF(codec, 2);
        long q = grow(o, plan_int(element, 1));
        o->ptr[pos] = 1;
        put_le(o, pos + 1, (unsigned long long)(q - base), 4);
        return write_slot(o, q, q, element, v, level);
    }
    case K_VECTOR: {
        if (!RB_TYPE_P(v, T_ARRAY)) return BAIL;
        VALUE element = RARRAY_AREF(codec, 2);
        long item = plan_int(element, 1);
        long n = RARRAY_LEN(v);
        long p = grow(o, 4 + n * item);
        put_le(o, pos, (unsigned long long)(p - base), 4);
        put_le(o, p, (unsigned long long)n, 4);
        for (long i = 0; i < n; i++) {
            if (RARRAY_LEN(v) != n) return BAIL;
            if (write_slot(o, base, p + 4 + i * item, element, RARRAY_AREF(v, i), level) < 0) return BAIL;
        }
        return 0;
    }
    case K_ARRAY: {
        long length = plan_int(codec, 3);
        if (!RB_TYPE_P(v, T_ARRAY) || RARRAY_LEN(v) != length) return BAIL;
        VALUE element = RARRAY_AREF(codec, 2);
        long item = plan_int(element, 1);
        for (long i = 0; i < length; i++) {
            if (RARRAY_LEN(v) != length) return BAIL;
            if (write_slot(o, base, pos + i * item, element, RARRAY_AREF(v, i), level) < 0) return BAIL;
        }
        return 0;
    }
    case K_CALL:
        rb_funcall(RARRAY_AREF(codec, 2), id_write, 4, writer(o), LONG2NUM(base), LONG2NUM(pos), v);
        out_resync(o);
        return 0;
    default:
        return BAIL;
    }
}

/* Writes the versioned body of a struct value at the buffer's end; returns its position. */
static long write_struct(struct out *o, VALUE value, int level)
{
    if (level > MAX_LEVELS) return BAIL;
    VALUE plan = plan_of(value);
    if (plan == Qfalse) return BAIL;

    /* plan: [body size, type id, [ivar, offset, codec]...] */
    long size = plan_int(plan, 0);
    long b = grow(o, size);
    put_le(o, b, (unsigned long long)size, 4);
    put_le(o, b + 4, NUM2ULL(RARRAY_AREF(plan, 1)), 4);
    long count = RARRAY_LEN(plan);
    for (long i = 2; i < count; i++) {
        VALUE field = RARRAY_AREF(plan, i);
        VALUE v = rb_ivar_get(value, SYM2ID(RARRAY_AREF(field, 0)));
        if (write_slot(o, b, b + plan_int(field, 1), RARRAY_AREF(field, 2), v, level) < 0) return BAIL;
    }
    return b;
}

static int final_struct(struct out *o, VALUE value, int level);

/* Appends value in the final model (docs/format.md 4). */
static int write_final(struct out *o, VALUE codec, VALUE v, int level)
{
    unsigned long long bits;
    char bytes[8];
    int size = plan_int(codec, 1);
    switch (plan_int(codec, 0)) {
    case K_INT:
        if (!integer_bits(v, size, plan_int(codec, 2), &bits)) return BAIL;
        break;
    case K_BOOL:
        bits = RTEST(v) ? 1 : 0;
        break;
    case K_FLOAT:
    case K_DOUBLE:
        if (!real_bits(v, plan_int(codec, 0), &bits)) return BAIL;
        break;
    case K_ENUM:
        if (!enum_bits(codec, v, &bits)) return BAIL;
        break;
    case K_STRING:
    case K_BYTES:
        if (!text_ok(codec, v)) return BAIL;
        reserve(o, 4 + RSTRING_LEN(v));
        append_u32(o, (unsigned long)RSTRING_LEN(v));
        append(o, RSTRING_PTR(v), RSTRING_LEN(v));
        return 0;
    case K_STRUCT:
        if (!RTEST(rb_obj_is_kind_of(v, RARRAY_AREF(codec, 2)))) return BAIL;
        return final_struct(o, v, level + 1);
    case K_OPTIONAL:
        append(o, NIL_P(v) ? "\0" : "\1", 1);
        return NIL_P(v) ? 0 : write_final(o, RARRAY_AREF(codec, 2), v, level);
    case K_VECTOR:
    case K_ARRAY: {
        if (!RB_TYPE_P(v, T_ARRAY)) return BAIL;
        long n = RARRAY_LEN(v);
        if (plan_int(codec, 0) == K_ARRAY && n != plan_int(codec, 3)) return BAIL;
        if (plan_int(codec, 0) == K_VECTOR) append_u32(o, (unsigned long)n);
        VALUE element = RARRAY_AREF(codec, 2);
        for (long i = 0; i < n; i++) {
            if (RARRAY_LEN(v) != n) return BAIL;
            if (write_final(o, element, RARRAY_AREF(v, i), level) < 0) return BAIL;
        }
        return 0;
    }
    case K_CALL:
        rb_funcall(RARRAY_AREF(codec, 2), id_fwrite, 2, writer(o), v);
        out_resync(o);
        return 0;
    default:
        return BAIL;
    }
    for (int i = 0; i < size; i++) bytes[i] = (char)(bits >> (8 * i));
    append(o, bytes, size);
    return 0;
}

/* Appends the fields of a struct value in the final model. */
static int final_struct(struct out *o, VALUE value, int level)
{
    if (level > MAX_LEVELS) return BAIL;
    VALUE plan = plan_of(value);
    if (plan == Qfalse) return BAIL;
    long count = RARRAY_LEN(plan);
    for (long i = 2; i < count; i++) {
        VALUE field = RARRAY_AREF(plan, i);
        VALUE v = rb_ivar_get(value, SYM2ID(RARRAY_AREF(field, 0)));
        if (write_final(o, RARRAY_AREF(field, 2), v, level) < 0) return BAIL;
    }
    return 0;
}

/* Fbe::Accel.to_fbe(value): the versioned root of a generated struct value (a binary String), or
 * nil when the pure-Ruby writer is to write it. */
static VALUE accel_to_fbe(VALUE self, VALUE value)
{
    (void)self;
    struct out o;
    out_init(&o);
    grow(&o, 8);
    long b = write_struct(&o, value, 1);
    if (b < 0 || (unsigned long)o.len > 0xFFFFFFFFUL) return Qnil;
    put_le(&o, 0, (unsigned long long)o.len, 4);
    put_le(&o, 4, (unsigned long long)b, 4);
    out_sync(&o);
    RB_GC_GUARD(value);
    return o.buf;
}

/* Fbe::Accel.to_final(value): the final root of a generated struct value (a binary String), or
 * nil when the pure-Ruby writer is to write it. */
static VALUE accel_to_final(VALUE self, VALUE value)
{
    (void)self;
    VALUE plan = plan_of(value);
    if (plan == Qfalse) return Qnil;
    struct out o;
    out_init(&o);
    grow(&o, 8);
    if (final_struct(&o, value, 1) < 0 || (unsigned long)o.len > 0xFFFFFFFFUL) return Qnil;
    put_le(&o, 0, (unsigned long long)o.len, 4);
    put_le(&o, 4, NUM2ULL(RARRAY_AREF(plan, 1)), 4);
    out_sync(&o);
    RB_GC_GUARD(value);
    return o.buf;
}

void Init_fbe_accel(void)
{
    VALUE m_fbe = rb_define_module("Fbe");
    m_accel = rb_define_module_under(m_fbe, "Accel");
    c_writer = rb_const_get(m_fbe, rb_intern("Writer"));
    rb_gc_register_address(&m_accel);
    rb_gc_register_address(&c_writer);
    plans = rb_hash_new();
    rb_funcall(plans, rb_intern("compare_by_identity"), 0);
    utf8 = rb_utf8_encindex();
    binary = rb_ascii8bit_encindex();
    rb_gc_register_mark_object(plans);
    rb_define_const(m_accel, "PLANS", plans);
    id_plan = rb_intern("plan");
    id_write = rb_intern("write");
    id_fwrite = rb_intern("fwrite");
    id_value = rb_intern("@value");
    id_buffer = rb_intern("@buffer");
    rb_define_module_function(m_accel, "to_fbe", accel_to_fbe, 1);
    rb_define_module_function(m_accel, "to_final", accel_to_final, 1);
}
