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
 *
 * Fbe::Accel.from_fbe(klass, data, limits) and from_final read a root of klass with the same plans,
 * and verify_fbe and verify_final check one (the readers below): they give the value the pure-Ruby
 * reader gives, or nil, and Value::ClassMethods#from_fbe, #from_final and the verifiers read the
 * input again in pure Ruby, which decides (and raises its error).
 */
#include <ruby.h>
#include <ruby/encoding.h>
#include <ruby/st.h>
#include <stdint.h>
#include <string.h>

/* Positions, sizes, budgets and Fixnums are computed in long (1L << 40, a u32 made a Fixnum with
 * LONG2FIX): the code needs a 64-bit long, which extconf.rb checks before it builds this file (on
 * LLP64 and 32-bit platforms the gem runs in pure Ruby). */
_Static_assert(sizeof(long) >= 8, "fbe_accel needs a 64-bit long (extconf.rb builds it only there)");

/* Codec kinds of a plan (lib/fbe/accel.rb: Fbe::Accel::INT ... CALL). */
enum {
    K_INT = 1,    /* [K_INT, size, signed] */
    K_BOOL,       /* [K_BOOL, 1] */
    K_FLOAT,      /* [K_FLOAT, 4] */
    K_DOUBLE,     /* [K_DOUBLE, 8] */
    K_STRING,     /* [K_STRING, 4] */
    K_BYTES,      /* [K_BYTES, 4] */
    K_ENUM,       /* [K_ENUM, size, signed, class, BY_VALUE]: an enum or flags value, or an Integer */
    K_STRUCT,     /* [K_STRUCT, 4, class] */
    K_OPTIONAL,   /* [K_OPTIONAL, 5, element] */
    K_VECTOR,     /* [K_VECTOR, 4, element, element cost, fewest final bytes of an element]: vector, list */
    K_ARRAY,      /* [K_ARRAY, size, element, length] */
    K_CALL        /* [K_CALL, size, codec]: the Ruby codec writes (reads) the slot */
};

/* A struct nested deeper than this (a value holding itself through a derived class) is left to
 * the pure-Ruby writer. */
#define MAX_LEVELS 128

#define BAIL (-1L)

/* A struct plan (lib/fbe/accel.rb: Fbe::Accel.plan): [body size, type id, decode cost, class, field...],
 * each field [instance variable, slot offset, codec plan, field name]. */
#define FIELDS_AT 4

static VALUE m_accel;
static VALUE c_writer;
/* class => its checked plan, or false for a class without one: out of Ruby's reach (no Hash, no
 * constant), so no Ruby code can give the C code a plan it has not checked (valid_plan). */
static st_table *plans;
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

/* After a Ruby codec wrote to the String (the codec, or code it or another thread ran, can do anything
 * to it): what it holds now, its bytes its own (a copy of it shares none: rb_str_modify); 0 when it is
 * shorter than kept, its length before the codec (the C writer still writes slots there). */
static int out_kept(struct out *o, long kept)
{
    rb_str_modify(o->buf);
    out_resync(o);
    return o->len >= kept;
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

/* ------------------------------------------------------------------------------------------------
 * Plans come from Ruby (Fbe::Accel.plan, which Ruby code can redefine or wrap), and the code below
 * reads them unchecked (offsets it writes to and reads from, sizes of the bytes it copies, classes and
 * Hashes it calls). So a plan is checked once, before it is remembered: every Array of it frozen
 * (nothing can change it after the check), of the length its kind has, its numbers Fixnums in the
 * ranges the writers and readers compute with, each slot within the body, scalars of the sizes
 * they are; any other plan is remembered as false (the class's values then go through pure Ruby).
 * ------------------------------------------------------------------------------------------------ */

/* The most plans nested in a field's plan (optional, vector and array elements) the check enters. */
#define PLAN_NESTING 32
/* Sizes, offsets, costs and lengths of a plan are below this (lib/fbe/accel.rb: small?). */
#define PLAN_SMALL (1L << 28)

/* Whether the element at i is a Fixnum in lo..hi (stored in out when given). */
static int fixnum_in(VALUE array, long i, long lo, long hi, long *out)
{
    VALUE v = RARRAY_AREF(array, i);
    if (!FIXNUM_P(v)) return 0;
    long x = FIX2LONG(v);
    if (x < lo || x > hi) return 0;
    if (out != NULL) *out = x;
    return 1;
}

static int frozen_array(VALUE v, long length)
{
    return RB_TYPE_P(v, T_ARRAY) && OBJ_FROZEN(v) && RARRAY_LEN(v) == length;
}

static int scalar_size(long size)
{
    return size == 1 || size == 2 || size == 4 || size == 8;
}

/* The slot size of a codec plan the code may trust, or -1. */
static long checked_codec(VALUE c, int nesting)
{
    long kind, size, n;
    if (nesting > PLAN_NESTING || !RB_TYPE_P(c, T_ARRAY) || !OBJ_FROZEN(c) || (n = RARRAY_LEN(c)) < 2 ||
        !fixnum_in(c, 0, K_INT, K_CALL, &kind) || !fixnum_in(c, 1, 0, PLAN_SMALL, &size)) return -1;
    int ok;
    switch (kind) {
    case K_INT:
        ok = n == 3 && scalar_size(size) && fixnum_in(c, 2, 0, 1, NULL);
        break;
    case K_BOOL:
        ok = n == 2 && size == 1;
        break;
    case K_FLOAT:
        ok = n == 2 && size == 4;
        break;
    case K_DOUBLE:
        ok = n == 2 && size == 8;
        break;
    case K_STRING:
    case K_BYTES:
        ok = n == 2 && size == 4;
        break;
    case K_ENUM: {
        VALUE type = n == 5 ? RARRAY_AREF(c, 3) : Qnil;
        ok = n == 5 && scalar_size(size) && fixnum_in(c, 2, 0, 1, NULL) &&
             (RB_TYPE_P(type, T_CLASS) || RB_TYPE_P(type, T_MODULE)) && RB_TYPE_P(RARRAY_AREF(c, 4), T_HASH);
        break;
    }
    case K_STRUCT:
        ok = n == 3 && size == 4 && RB_TYPE_P(RARRAY_AREF(c, 2), T_CLASS);
        break;
    case K_OPTIONAL:
        ok = n == 3 && size == 5 && checked_codec(RARRAY_AREF(c, 2), nesting + 1) > 0;
        break;
    case K_VECTOR:
        ok = n == 5 && size == 4 && checked_codec(RARRAY_AREF(c, 2), nesting + 1) > 0 &&
             fixnum_in(c, 3, 0, PLAN_SMALL, NULL) && fixnum_in(c, 4, 0, PLAN_SMALL, NULL);
        break;
    case K_ARRAY: {
        long length;
        long item = n == 4 ? checked_codec(RARRAY_AREF(c, 2), nesting + 1) : -1;
        ok = item > 0 && fixnum_in(c, 3, 0, PLAN_SMALL, &length) && size == item * length;
        break;
    }
    default: /* K_CALL: the codec is any object (the code calls its methods) */
        ok = n == 3;
        break;
    }
    return ok ? size : -1;
}

/* Whether plan is one of klass the code may trust: [body size, type id, cost, klass, field...], each
 * field [instance variable, slot offset, codec plan, name] with its slot within the body. */
static int checked_plan(VALUE klass, VALUE plan)
{
    long body, n;
    if (!RB_TYPE_P(plan, T_ARRAY) || !OBJ_FROZEN(plan) || (n = RARRAY_LEN(plan)) < FIELDS_AT ||
        !fixnum_in(plan, 0, 8, PLAN_SMALL, &body) || !fixnum_in(plan, 1, 0, 0xFFFFFFFFL, NULL) ||
        !fixnum_in(plan, 2, 0, PLAN_SMALL, NULL) || RARRAY_AREF(plan, 3) != klass) return 0;
    for (long i = FIELDS_AT; i < n; i++) {
        VALUE field = RARRAY_AREF(plan, i);
        if (!frozen_array(field, 4)) return 0;
        VALUE name = RARRAY_AREF(field, 0);
        if (!SYMBOL_P(name)) return 0;
        VALUE text = rb_sym2str(name);
        long offset, size = checked_codec(RARRAY_AREF(field, 2), 0);
        if (RSTRING_LEN(text) < 2 || RSTRING_PTR(text)[0] != '@' || RSTRING_PTR(text)[1] == '@' ||
            !fixnum_in(field, 1, 8, body, &offset) || size < 0 || offset + size > body) return 0;
    }
    return 1;
}

/* The plan of a generated class, checked, or Qfalse: remembered, else made by Fbe::Accel.plan (Ruby code
 * runs) and remembered. */
static VALUE plan_for(VALUE klass)
{
    st_data_t known;
    if (st_lookup(plans, (st_data_t)klass, &known)) return (VALUE)known;
    VALUE plan = rb_funcall(m_accel, id_plan, 1, klass);
    if (!checked_plan(klass, plan)) plan = Qfalse;
    st_insert(plans, (st_data_t)klass, (st_data_t)plan);
    RB_GC_GUARD(plan);
    return plan;
}

static int mark_plan(st_data_t klass, st_data_t plan, st_data_t arg)
{
    (void)arg;
    rb_gc_mark((VALUE)klass);
    rb_gc_mark((VALUE)plan);
    return ST_CONTINUE;
}

/* The remembered plans and their classes are kept alive by one object that marks them. */
static void mark_plans(void *data)
{
    (void)data;
    st_foreach(plans, mark_plan, 0);
}

static const rb_data_type_t plans_type = {
    .wrap_struct_name = "fbe_accel_plans",
    .function = {.dmark = mark_plans, .dfree = RUBY_NEVER_FREE},
};

/* Fbe::Accel.forget(klass): the class's plan made again (by Fbe::Accel.plan) when it is next needed. */
static VALUE accel_forget(VALUE self, VALUE klass)
{
    (void)self;
    st_data_t key = (st_data_t)klass;
    return st_delete(plans, &key, NULL) ? Qtrue : Qfalse;
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
    return plan_for(rb_obj_class(value));
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
    case K_CALL: {
        long before = o->len;
        rb_funcall(RARRAY_AREF(codec, 2), id_write, 4, writer(o), LONG2NUM(base), LONG2NUM(pos), v);
        return out_kept(o, before) ? 0 : BAIL;
    }
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

    long size = plan_int(plan, 0);
    long b = grow(o, size);
    put_le(o, b, (unsigned long long)size, 4);
    put_le(o, b + 4, NUM2ULL(RARRAY_AREF(plan, 1)), 4);
    long count = RARRAY_LEN(plan);
    for (long i = FIELDS_AT; i < count; i++) {
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
    case K_CALL: {
        long before = o->len;
        rb_funcall(RARRAY_AREF(codec, 2), id_fwrite, 2, writer(o), v);
        return out_kept(o, before) ? 0 : BAIL;
    }
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
    for (long i = FIELDS_AT; i < count; i++) {
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

/* ------------------------------------------------------------------------------------------------
 * The readers: Fbe::Accel.from_fbe(klass, data, limits), from_final, verify_fbe and verify_final.
 *
 * They make the value the pure-Ruby reader (lib/fbe/buffer.rb's Fbe::Reader and the generated
 * fbe_read_body / fbe_read_final_fields) makes, with its checks in its order, its block order
 * (mark), its decode budget and its depth (docs/limits.md), charged as it charges them. They accept
 * a subset of what it accepts: on a failed check, or on anything they are not sure of (a body of an
 * older version, which the pure reader fills with defaults and charges field by field; limits that
 * are not an Fbe::Limits of small Integers; a nesting deeper than C_MAX_LEVELS; a Ruby codec that
 * raises), they return nil and the pure-Ruby reader reads the whole input again, whose error is the
 * one raised. Fields of the kinds they do not handle (decimal, uuid, sets, maps) are read by their
 * Ruby codec (read, fread) over an Fbe::Reader that is given the C reader's state and gives it back.
 * ------------------------------------------------------------------------------------------------ */

#define FAIL Qundef /* a check failed or the C reader is not sure: the pure-Ruby reader decides */

/* Struct levels the C readers enter at most (the C stack), whatever the limits allow. */
#define C_MAX_LEVELS 256

static VALUE c_reader, c_limits;
static ID id_read, id_fread, id_from_wire, id_mark, id_pos, id_budget, id_depth, id_verify;
static ID id_max_depth, id_budget_factor, id_budget_slack;
static long default_depth, default_factor, default_slack;

/* The state of one decode (the fields of Fbe::Reader). */
struct in {
    VALUE data;              /* the input String */
    const unsigned char *p;  /* its bytes */
    int64_t size;            /* the root's size: what the reader may read */
    int64_t mark;            /* versioned: the end of the last out-of-line block read */
    int64_t pos;             /* final: the cursor */
    int64_t budget;          /* the decode budget left, never below 0 here */
    long depth;              /* struct levels entered */
    long max_depth;          /* the limit, at most C_MAX_LEVELS */
    int verify;              /* checks only, no value made */
    VALUE limits;            /* as given (the Fbe::Reader of a Ruby codec is made with them) */
    VALUE reader;            /* that Fbe::Reader, made when a Ruby codec first reads, or Qnil */
};

static uint64_t get_le(const struct in *r, int64_t pos, int size)
{
    const unsigned char *q = r->p + pos;
    uint64_t v = 0;
    for (int i = size - 1; i >= 0; i--) v = (v << 8) | q[i];
    return v;
}

static int64_t get_u32(const struct in *r, int64_t pos)
{
    return (int64_t)get_le(r, pos, 4);
}

/* Ruby code ran (a codec, an enum's from_wire, Fbe::Accel.plan, the limits' readers: any code, and
 * other threads in between) and may have changed the input String (replaced, shortened or grown it,
 * its bytes moved): its bytes looked up again; 0 unless it still holds the size bytes the reader may
 * read (Ruby then reads what is there). */
static int input_kept(struct in *r)
{
    if (RSTRING_LEN(r->data) < r->size) return 0;
    r->p = (const unsigned char *)RSTRING_PTR(r->data);
    return 1;
}

/* Charges count values of cost each (Fbe::Reader#spend); 0 when the budget does not pay. */
static int spend(struct in *r, int64_t count, int64_t cost)
{
    if (cost > 0 && count > r->budget / cost) return 0;
    r->budget -= count * cost;
    return 1;
}

/* The value of an integer of size bytes (String#unpack1 of 'c', 's<', 'l<', 'q<' or their unsigned twins). */
static VALUE int_value(uint64_t bits, int size, int is_signed)
{
    if (size == 8) return is_signed ? LL2NUM((long long)bits) : ULL2NUM(bits);
    if (is_signed) {
        int shift = 64 - 8 * size;
        return LONG2FIX((long)((int64_t)(bits << shift) >> shift));
    }
    return LONG2FIX((long)bits);
}

/* The value of a scalar whose bytes are at pos: an integer, bool, float, double, enum or flags. */
static VALUE scalar_at(struct in *r, int64_t pos, VALUE codec, int kind)
{
    int size = plan_int(codec, 1);
    uint64_t bits = get_le(r, pos, size);
    switch (kind) {
    case K_INT:
        return int_value(bits, size, plan_int(codec, 2));
    case K_BOOL:
        return bits != 0 ? Qtrue : Qfalse;
    case K_FLOAT: {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        return DBL2NUM((double)f);
    }
    case K_DOUBLE: {
        double d;
        memcpy(&d, &bits, 8);
        return DBL2NUM(d);
    }
    default: { /* K_ENUM: BY_VALUE[wire] || Class.from_wire(wire), as generated readers make it */
        if (r->verify) return Qnil;
        VALUE wire = int_value(bits, size, plan_int(codec, 2));
        VALUE v = rb_hash_lookup2(RARRAY_AREF(codec, 4), wire, Qundef);
        if (v != Qundef) return v;
        v = rb_funcall(RARRAY_AREF(codec, 3), id_from_wire, 1, wire);
        return input_kept(r) ? v : FAIL;
    }
    }
}

/* The String of n bytes at pos: UTF-8 for a string, binary for bytes (their bytes as they are: the
 * pure-Ruby reader checks no UTF-8 either). */
static VALUE text_value(const struct in *r, int64_t pos, int64_t n, int kind)
{
    if (r->verify) return Qnil;
    const char *bytes = (const char *)r->p + pos;
    return kind == K_STRING ? rb_utf8_str_new(bytes, n) : rb_str_new(bytes, n);
}

/* The Array of a collection's count elements, its room at most one element per input byte: elements
 * of no bytes (structs without fields in the final model) are paid for one by one as they are read,
 * and a count of 4G of them must not size an allocation (docs/limits.md 3). */
static VALUE new_items(const struct in *r, int64_t count)
{
    return rb_ary_new_capa((long)(count < r->size ? count : r->size));
}

/* The plan of a generated class (Fbe::Accel.plan makes it the first time), or Qfalse; r is the decode
 * whose input is looked up again when Ruby code ran, or NULL before it reads any byte. */
static VALUE class_plan(struct in *r, VALUE klass)
{
    st_data_t known;
    if (st_lookup(plans, (st_data_t)klass, &known)) return (VALUE)known;
    VALUE plan = plan_for(klass);
    return r != NULL && !input_kept(r) ? Qfalse : plan;
}

/* A Ruby codec's read or fread, with its DecodeError (any StandardError) turned into FAIL. */
struct call {
    VALUE codec;
    ID method;
    int argc;
    VALUE argv[4];
};

static VALUE call_codec(VALUE arg)
{
    struct call *c = (struct call *)arg;
    return rb_funcallv(c->codec, c->method, c->argc, c->argv);
}

static VALUE call_failed(VALUE arg, VALUE error)
{
    (void)arg;
    (void)error;
    return FAIL;
}

/* Calls the codec over the Fbe::Reader of the decode, given the state of r before and r given its
 * state after. */
static VALUE ruby_read(struct in *r, struct call *c)
{
    if (NIL_P(r->reader)) {
        VALUE args[3] = {r->data, LL2NUM(r->size), r->limits};
        r->reader = rb_class_new_instance(3, args, c_reader);
    }
    VALUE reader = r->reader;
    rb_ivar_set(reader, id_mark, LL2NUM(r->mark));
    rb_ivar_set(reader, id_pos, LL2NUM(r->pos));
    rb_ivar_set(reader, id_budget, LL2NUM(r->budget));
    rb_ivar_set(reader, id_depth, LONG2NUM(r->depth));
    rb_ivar_set(reader, id_verify, r->verify ? Qtrue : Qfalse);
    c->argv[0] = reader;
    VALUE v = rb_rescue2(call_codec, (VALUE)c, call_failed, Qnil, rb_eStandardError, (VALUE)0);
    if (v == FAIL) return FAIL;
    VALUE mark = rb_ivar_get(reader, id_mark), pos = rb_ivar_get(reader, id_pos);
    VALUE budget = rb_ivar_get(reader, id_budget), depth = rb_ivar_get(reader, id_depth);
    if (!FIXNUM_P(mark) || !FIXNUM_P(pos) || !FIXNUM_P(budget) || !FIXNUM_P(depth)) return FAIL;
    r->mark = FIX2LONG(mark);
    r->pos = FIX2LONG(pos);
    r->budget = FIX2LONG(budget);
    r->depth = FIX2LONG(depth);
    return r->budget >= 0 && input_kept(r) ? v : FAIL;
}

static VALUE read_struct(struct in *r, VALUE klass, int64_t base, int64_t off);

/* The value of the versioned slot at pos, offsets counted from base (the codecs' read). */
static VALUE read_slot(struct in *r, int64_t base, int64_t pos, VALUE codec, VALUE field)
{
    int kind = plan_int(codec, 0);
    switch (kind) {
    case K_INT:
    case K_BOOL:
    case K_FLOAT:
    case K_DOUBLE:
    case K_ENUM:
        return scalar_at(r, pos, codec, kind);
    case K_STRING:
    case K_BYTES: { /* Fbe::Reader#string, #bytes and #block */
        int64_t off = get_u32(r, pos);
        if (off == 0) return r->verify ? Qnil : kind == K_STRING ? rb_utf8_str_new("", 0) : rb_str_new("", 0);
        int64_t at = base + off;
        if (at < r->mark || at + 4 > r->size) return FAIL;
        int64_t n = get_u32(r, at);
        if (at + 4 + n > r->size) return FAIL;
        r->mark = at + 4 + n;
        if (!spend(r, n, 1)) return FAIL;
        return text_value(r, at + 4, n, kind);
    }
    case K_STRUCT:
        return read_struct(r, RARRAY_AREF(codec, 2), base, get_u32(r, pos));
    case K_OPTIONAL: { /* Types::Optional#read and Fbe::Reader#claim */
        if (r->p[pos] == 0) return Qnil;
        int64_t off = get_u32(r, pos + 1);
        if (off == 0) return FAIL;
        VALUE element = RARRAY_AREF(codec, 2);
        int64_t q = base + off;
        if (q < r->mark || q + plan_int(element, 1) > r->size) return FAIL;
        r->mark = q + plan_int(element, 1);
        return read_slot(r, q, q, element, field);
    }
    case K_VECTOR: { /* Types::Sequence#read and Fbe::Reader#count */
        int64_t off = get_u32(r, pos);
        if (off == 0) return r->verify ? Qnil : rb_ary_new();
        VALUE element = RARRAY_AREF(codec, 2);
        int64_t item = plan_int(element, 1);
        int64_t q = base + off;
        if (q < r->mark || q + 4 > r->size) return FAIL;
        int64_t n = get_u32(r, q);
        if (n * item > r->size - q - 4) return FAIL;
        r->mark = q + 4 + n * item;
        if (!spend(r, n, plan_int(codec, 3))) return FAIL;
        VALUE out = r->verify ? Qnil : new_items(r, n);
        for (int64_t i = 0; i < n; i++) {
            VALUE v = read_slot(r, base, q + 4 + i * item, element, field);
            if (v == FAIL) return FAIL;
            if (!r->verify) rb_ary_push(out, v);
        }
        return out;
    }
    case K_ARRAY: { /* Types::FixedArray#read */
        long length = plan_int(codec, 3);
        VALUE element = RARRAY_AREF(codec, 2);
        int64_t item = plan_int(element, 1);
        VALUE out = r->verify ? Qnil : rb_ary_new_capa(length);
        for (long i = 0; i < length; i++) {
            VALUE v = read_slot(r, base, pos + i * item, element, field);
            if (v == FAIL) return FAIL;
            if (!r->verify) rb_ary_push(out, v);
        }
        return out;
    }
    case K_CALL: {
        struct call c = {RARRAY_AREF(codec, 2), id_read, 4, {Qnil, LL2NUM(base), LL2NUM(pos), field}};
        return ruby_read(r, &c);
    }
    default:
        return FAIL;
    }
}

/* The versioned struct value of klass whose body is at off from base (Fbe::Reader#struct_at): a body
 * of this version or a newer one (an older one, shorter, is left to Ruby), entered one level deeper
 * and charged the class's cost, its fields read in order. */
static VALUE read_struct(struct in *r, VALUE klass, int64_t base, int64_t off)
{
    if (off == 0) return FAIL;
    VALUE plan = class_plan(r, klass);
    if (plan == Qfalse) return FAIL;
    int64_t pos = base + off;
    if (pos < r->mark || pos + 8 > r->size) return FAIL;
    int64_t n = get_u32(r, pos);
    if (n < plan_int(plan, 0) || pos + n > r->size) return FAIL;
    if ((uint64_t)get_u32(r, pos + 4) != NUM2ULL(RARRAY_AREF(plan, 1))) return FAIL;
    r->mark = pos + n;
    if (++r->depth > r->max_depth || !spend(r, 1, plan_int(plan, 2))) return FAIL;
    VALUE value = r->verify ? Qnil : rb_obj_alloc(klass);
    long count = RARRAY_LEN(plan);
    for (long i = FIELDS_AT; i < count; i++) {
        VALUE field = RARRAY_AREF(plan, i);
        VALUE v = read_slot(r, pos, pos + plan_int(field, 1), RARRAY_AREF(field, 2), RARRAY_AREF(field, 3));
        if (v == FAIL) return FAIL;
        if (!r->verify) rb_ivar_set(value, SYM2ID(RARRAY_AREF(field, 0)), v);
    }
    r->depth--;
    RB_GC_GUARD(plan);
    return value;
}

static VALUE read_final_struct(struct in *r, VALUE klass);

/* Final model: the position of n bytes at the cursor, moved past them (Fbe::Reader#take), or -1. */
static int64_t take(struct in *r, int64_t n)
{
    int64_t at = r->pos;
    if (at + n > r->size) return -1;
    r->pos = at + n;
    return at;
}

/* The final value at the cursor (the codecs' fread). */
static VALUE read_final_slot(struct in *r, VALUE codec, VALUE field)
{
    int kind = plan_int(codec, 0);
    switch (kind) {
    case K_INT:
    case K_BOOL:
    case K_FLOAT:
    case K_DOUBLE:
    case K_ENUM: {
        int64_t at = take(r, plan_int(codec, 1));
        return at < 0 ? FAIL : scalar_at(r, at, codec, kind);
    }
    case K_STRING:
    case K_BYTES: { /* Fbe::Reader#final_block */
        int64_t at = take(r, 4);
        if (at < 0) return FAIL;
        int64_t n = get_u32(r, at);
        if (take(r, n) < 0 || !spend(r, n, 1)) return FAIL;
        return text_value(r, at + 4, n, kind);
    }
    case K_STRUCT:
        return read_final_struct(r, RARRAY_AREF(codec, 2));
    case K_OPTIONAL: {
        int64_t at = take(r, 1);
        if (at < 0) return FAIL;
        return r->p[at] == 0 ? Qnil : read_final_slot(r, RARRAY_AREF(codec, 2), field);
    }
    case K_VECTOR: { /* Types::Sequence#fread and Fbe::Reader#final_count */
        int64_t at = take(r, 4);
        if (at < 0) return FAIL;
        int64_t n = get_u32(r, at);
        if (n * plan_int(codec, 4) > r->size - at - 4 || !spend(r, n, plan_int(codec, 3))) return FAIL;
        VALUE element = RARRAY_AREF(codec, 2);
        VALUE out = r->verify ? Qnil : new_items(r, n);
        for (int64_t i = 0; i < n; i++) {
            VALUE v = read_final_slot(r, element, field);
            if (v == FAIL) return FAIL;
            if (!r->verify) rb_ary_push(out, v);
        }
        return out;
    }
    case K_ARRAY: {
        long length = plan_int(codec, 3);
        VALUE element = RARRAY_AREF(codec, 2);
        VALUE out = r->verify ? Qnil : rb_ary_new_capa(length);
        for (long i = 0; i < length; i++) {
            VALUE v = read_final_slot(r, element, field);
            if (v == FAIL) return FAIL;
            if (!r->verify) rb_ary_push(out, v);
        }
        return out;
    }
    case K_CALL: {
        struct call c = {RARRAY_AREF(codec, 2), id_fread, 2, {Qnil, field, Qnil, Qnil}};
        return ruby_read(r, &c);
    }
    default:
        return FAIL;
    }
}

/* The final struct value of klass at the cursor (Types::Struct#final): entered one level deeper and
 * charged the class's cost, its fields read in order. */
static VALUE read_final_struct(struct in *r, VALUE klass)
{
    VALUE plan = class_plan(r, klass);
    if (plan == Qfalse) return FAIL;
    if (++r->depth > r->max_depth || !spend(r, 1, plan_int(plan, 2))) return FAIL;
    VALUE value = r->verify ? Qnil : rb_obj_alloc(klass);
    long count = RARRAY_LEN(plan);
    for (long i = FIELDS_AT; i < count; i++) {
        VALUE field = RARRAY_AREF(plan, i);
        VALUE v = read_final_slot(r, RARRAY_AREF(field, 2), RARRAY_AREF(field, 3));
        if (v == FAIL) return FAIL;
        if (!r->verify) rb_ivar_set(value, SYM2ID(RARRAY_AREF(field, 0)), v);
    }
    r->depth--;
    RB_GC_GUARD(plan);
    return value;
}

/* A limit of an Fbe::Limits the C readers compute with: a Fixnum within bound (either sign), or 0. */
static int small_limit(VALUE v, long bound, long *out)
{
    if (!FIXNUM_P(v)) return 0;
    long x = FIX2LONG(v);
    if (x > bound || x < -bound) return 0;
    *out = x;
    return 1;
}

/* The state of a decode of the first size bytes of data under limits (nil: the defaults), as
 * Fbe::Reader.new sets it; 0 when the C readers leave such limits to Ruby, or when the limits' readers
 * (Ruby code) left data shorter than size. */
static int start(struct in *r, VALUE data, int64_t size, VALUE limits)
{
    long depth = default_depth, factor = default_factor, slack = default_slack;
    if (!NIL_P(limits)) {
        if (rb_obj_class(limits) != c_limits) return 0;
        if (!small_limit(rb_funcall(limits, id_max_depth, 0), 1L << 30, &depth) ||
            !small_limit(rb_funcall(limits, id_budget_factor, 0), 1L << 20, &factor) ||
            !small_limit(rb_funcall(limits, id_budget_slack, 0), 1L << 40, &slack)) return 0;
    }
    r->data = data;
    r->size = size;
    if (!input_kept(r)) return 0;
    r->mark = 8;
    r->pos = 8;
    r->budget = (int64_t)factor * size + slack;
    r->depth = 0;
    r->max_depth = depth < C_MAX_LEVELS ? depth : C_MAX_LEVELS;
    r->limits = limits;
    r->reader = Qnil;
    /* a budget below 0 from the start fails at the root, which costs at least 0: Ruby says how */
    return r->budget >= 0;
}

/* The value (verify: true) of a versioned root of klass (Value::ClassMethods#fbe_versioned), or nil. */
static VALUE versioned_root(VALUE klass, VALUE data, VALUE limits, int verify)
{
    if (!RB_TYPE_P(data, T_STRING) || RSTRING_LEN(data) < 8) return Qnil;
    struct in r;
    r.p = (const unsigned char *)RSTRING_PTR(data);
    int64_t total = get_u32(&r, 0), off = get_u32(&r, 4);
    if (total < 16 || total > RSTRING_LEN(data) || off < 8 || !start(&r, data, total, limits)) return Qnil;
    r.verify = verify;
    VALUE value = read_struct(&r, klass, 0, off);
    RB_GC_GUARD(data);
    RB_GC_GUARD(r.reader);
    return value == FAIL ? Qnil : verify ? Qtrue : value;
}

/* The value (verify: true) of a final root of klass (Value::ClassMethods#fbe_final), or nil. */
static VALUE final_root(VALUE klass, VALUE data, VALUE limits, int verify)
{
    if (!RB_TYPE_P(data, T_STRING)) return Qnil;
    VALUE plan = class_plan(NULL, klass); /* before any byte is read: Ruby code can run */
    if (plan == Qfalse || RSTRING_LEN(data) < 8) return Qnil;
    struct in r;
    r.p = (const unsigned char *)RSTRING_PTR(data);
    int64_t size = get_u32(&r, 0);
    if (size < 8 || size > RSTRING_LEN(data) || (uint64_t)get_u32(&r, 4) != NUM2ULL(RARRAY_AREF(plan, 1)) ||
        !start(&r, data, size, limits)) return Qnil;
    r.verify = verify;
    VALUE value = read_final_struct(&r, klass);
    RB_GC_GUARD(data);
    RB_GC_GUARD(r.reader);
    if (value == FAIL || r.pos != size) return Qnil;
    return verify ? Qtrue : value;
}

/* Fbe::Accel.from_fbe(klass, data, limits): the value of a versioned root of the generated class, or
 * nil when the pure-Ruby reader is to read it (and raise its error). */
static VALUE accel_from_fbe(VALUE self, VALUE klass, VALUE data, VALUE limits)
{
    (void)self;
    return versioned_root(klass, data, limits, 0);
}

/* Fbe::Accel.verify_fbe(klass, data, limits): true when from_fbe reads the root, or nil when the
 * pure-Ruby verify is to say. */
static VALUE accel_verify_fbe(VALUE self, VALUE klass, VALUE data, VALUE limits)
{
    (void)self;
    return versioned_root(klass, data, limits, 1);
}

/* Fbe::Accel.from_final(klass, data, limits) and verify_final: the final model's. */
static VALUE accel_from_final(VALUE self, VALUE klass, VALUE data, VALUE limits)
{
    (void)self;
    return final_root(klass, data, limits, 0);
}

static VALUE accel_verify_final(VALUE self, VALUE klass, VALUE data, VALUE limits)
{
    (void)self;
    return final_root(klass, data, limits, 1);
}

static long fbe_constant(VALUE m_fbe, const char *name)
{
    return FIX2LONG(rb_const_get(m_fbe, rb_intern(name)));
}


void Init_fbe_accel(void)
{
    VALUE m_fbe = rb_define_module("Fbe");
    m_accel = rb_define_module_under(m_fbe, "Accel");
    c_writer = rb_const_get(m_fbe, rb_intern("Writer"));
    rb_gc_register_address(&m_accel);
    rb_gc_register_address(&c_writer);
    plans = st_init_numtable();
    rb_gc_register_mark_object(TypedData_Wrap_Struct(0, &plans_type, plans));
    utf8 = rb_utf8_encindex();
    binary = rb_ascii8bit_encindex();
    rb_define_module_function(m_accel, "forget", accel_forget, 1);
    id_plan = rb_intern("plan");
    id_write = rb_intern("write");
    id_fwrite = rb_intern("fwrite");
    id_value = rb_intern("@value");
    id_buffer = rb_intern("@buffer");
    rb_define_module_function(m_accel, "to_fbe", accel_to_fbe, 1);
    rb_define_module_function(m_accel, "to_final", accel_to_final, 1);

    c_reader = rb_const_get(m_fbe, rb_intern("Reader"));
    c_limits = rb_const_get(m_fbe, rb_intern("Limits"));
    rb_gc_register_address(&c_reader);
    rb_gc_register_address(&c_limits);
    default_depth = fbe_constant(m_fbe, "MAX_DEPTH");
    default_factor = fbe_constant(m_fbe, "BUDGET_FACTOR");
    default_slack = fbe_constant(m_fbe, "BUDGET_SLACK");
    id_read = rb_intern("read");
    id_fread = rb_intern("fread");
    id_from_wire = rb_intern("from_wire");
    id_mark = rb_intern("@mark");
    id_pos = rb_intern("@pos");
    id_budget = rb_intern("@budget");
    id_depth = rb_intern("@depth");
    id_verify = rb_intern("@verify");
    id_max_depth = rb_intern("max_depth");
    id_budget_factor = rb_intern("budget_factor");
    id_budget_slack = rb_intern("budget_slack");
    rb_define_module_function(m_accel, "from_fbe", accel_from_fbe, 3);
    rb_define_module_function(m_accel, "verify_fbe", accel_verify_fbe, 3);
    rb_define_module_function(m_accel, "from_final", accel_from_final, 3);
    rb_define_module_function(m_accel, "verify_final", accel_verify_final, 3);
}
