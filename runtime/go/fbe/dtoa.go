package fbe

import (
	"math"
	"math/bits"
	"strconv"
)

// The JSON text of a double (docs/format.md 8.4).
//
// The original writes float and double values with RapidJSON master's
// Writer::Double, whose digits come from Grisu2 (F. Loitsch, "Printing
// floating-point numbers quickly and accurately with integers", PLDI 2010).
// Its output reads back to the same value but is not always the shortest
// such text, which is what strconv gives (1e23 is 9.999999999999999e22):
// this is a port of the C++
// runtime's fbe/dtoa.h (itself RapidJSON master's algorithm), so the text is
// byte-identical to the original's. runtime/python/fbe/jsonfmt.py implements
// the same rule; the tests compare the two on random bit patterns.
//
// Text form (RapidJSON's Prettify): digits d1..dn times 10^k, kk = n + k:
//
//	k >= 0 and kk <= 21     integer digits and ".0"      100.0, 9007199254740992.0
//	0 < kk <= 21            a fraction                   12.5, 123456789.12345679
//	-6 < kk <= 0            "0." and leading zeros       0.1, 0.001234
//	otherwise               exponent form, no "+"        5e-324, 1.7976931348623157e308
//
// Zero is "0.0" or "-0.0".

// diyFp is f * 2^e with a 64-bit significand ("do it yourself floating point").
type diyFp struct {
	f uint64
	e int
}

func normalizedFp(f uint64, e int) diyFp {
	s := bits.LeadingZeros64(f)
	return diyFp{f << s, e - s}
}

// multiply is the upper 64 bits of the 128-bit product, rounded half up.
func (a diyFp) multiply(b diyFp) diyFp {
	hi, lo := bits.Mul64(a.f, b.f)
	return diyFp{hi + lo>>63, a.e + b.e + 64}
}

// cachedPowers are 10^(8i - 348) for i = 0..86 as f * 2^e, f the 64-bit
// significand rounded to nearest (RapidJSON's table; the C++ runtime's
// kCachedPowers, computed exactly by fbe.jsonfmt._cached_power).
var cachedPowers = [87]struct {
	f uint64
	e int16
}{
	{0xFA8FD5A0081C0288, -1220}, {0xBAAEE17FA23EBF76, -1193}, {0x8B16FB203055AC76, -1166},
	{0xCF42894A5DCE35EA, -1140}, {0x9A6BB0AA55653B2D, -1113}, {0xE61ACF033D1A45DF, -1087},
	{0xAB70FE17C79AC6CA, -1060}, {0xFF77B1FCBEBCDC4F, -1034}, {0xBE5691EF416BD60C, -1007},
	{0x8DD01FAD907FFC3C, -980}, {0xD3515C2831559A83, -954}, {0x9D71AC8FADA6C9B5, -927},
	{0xEA9C227723EE8BCB, -901}, {0xAECC49914078536D, -874}, {0x823C12795DB6CE57, -847},
	{0xC21094364DFB5637, -821}, {0x9096EA6F3848984F, -794}, {0xD77485CB25823AC7, -768},
	{0xA086CFCD97BF97F4, -741}, {0xEF340A98172AACE5, -715}, {0xB23867FB2A35B28E, -688},
	{0x84C8D4DFD2C63F3B, -661}, {0xC5DD44271AD3CDBA, -635}, {0x936B9FCEBB25C996, -608},
	{0xDBAC6C247D62A584, -582}, {0xA3AB66580D5FDAF6, -555}, {0xF3E2F893DEC3F126, -529},
	{0xB5B5ADA8AAFF80B8, -502}, {0x87625F056C7C4A8B, -475}, {0xC9BCFF6034C13053, -449},
	{0x964E858C91BA2655, -422}, {0xDFF9772470297EBD, -396}, {0xA6DFBD9FB8E5B88F, -369},
	{0xF8A95FCF88747D94, -343}, {0xB94470938FA89BCF, -316}, {0x8A08F0F8BF0F156B, -289},
	{0xCDB02555653131B6, -263}, {0x993FE2C6D07B7FAC, -236}, {0xE45C10C42A2B3B06, -210},
	{0xAA242499697392D3, -183}, {0xFD87B5F28300CA0E, -157}, {0xBCE5086492111AEB, -130},
	{0x8CBCCC096F5088CC, -103}, {0xD1B71758E219652C, -77}, {0x9C40000000000000, -50},
	{0xE8D4A51000000000, -24}, {0xAD78EBC5AC620000, 3}, {0x813F3978F8940984, 30},
	{0xC097CE7BC90715B3, 56}, {0x8F7E32CE7BEA5C70, 83}, {0xD5D238A4ABE98068, 109},
	{0x9F4F2726179A2245, 136}, {0xED63A231D4C4FB27, 162}, {0xB0DE65388CC8ADA8, 189},
	{0x83C7088E1AAB65DB, 216}, {0xC45D1DF942711D9A, 242}, {0x924D692CA61BE758, 269},
	{0xDA01EE641A708DEA, 295}, {0xA26DA3999AEF774A, 322}, {0xF209787BB47D6B85, 348},
	{0xB454E4A179DD1877, 375}, {0x865B86925B9BC5C2, 402}, {0xC83553C5C8965D3D, 428},
	{0x952AB45CFA97A0B3, 455}, {0xDE469FBD99A05FE3, 481}, {0xA59BC234DB398C25, 508},
	{0xF6C69A72A3989F5C, 534}, {0xB7DCBF5354E9BECE, 561}, {0x88FCF317F22241E2, 588},
	{0xCC20CE9BD35C78A5, 614}, {0x98165AF37B2153DF, 641}, {0xE2A0B5DC971F303A, 667},
	{0xA8D9D1535CE3B396, 694}, {0xFB9B7CD9A4A7443C, 720}, {0xBB764C4CA7A44410, 747},
	{0x8BAB8EEFB6409C1A, 774}, {0xD01FEF10A657842C, 800}, {0x9B10A4E5E9913129, 827},
	{0xE7109BFBA19C0C9D, 853}, {0xAC2820D9623BF429, 880}, {0x80444B5E7AA7CF85, 907},
	{0xBF21E44003ACDD2D, 933}, {0x8E679C2F5E44FF8F, 960}, {0xD433179D9C8CB841, 986},
	{0x9E19DB92B4E31BA9, 1013}, {0xEB96BF6EBADF77D9, 1039}, {0xAF87023B9BF0EE6B, 1066},
}

// pow10u are 10^0 .. 10^19.
var pow10u = [20]uint64{
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
	10000000000, 100000000000, 1000000000000, 10000000000000, 100000000000000, 1000000000000000,
	10000000000000000, 100000000000000000, 1000000000000000000, 10000000000000000000,
}

// integerDigits is the number of decimal digits of x, at most 9 (the integer
// part of the scaled value stays below 10^9 for the exponents the cached
// power brings it to).
func integerDigits(x uint32) int {
	n := 1
	for n < 9 && uint64(x) >= pow10u[n] {
		n++
	}
	return n
}

// roundTowardsValue lowers the last digit while the result stays inside the
// interval (rest + unit <= delta) and gets closer to the scaled value, which
// lies distance below the interval's top.
func roundTowardsValue(digits []byte, delta, rest, unit, distance uint64) {
	last := len(digits) - 1
	for rest < distance && delta-rest >= unit && (rest+unit < distance || distance-rest > rest+unit-distance) {
		digits[last]--
		rest += unit
	}
}

// grisu2 appends to digits the Grisu2 digits of a finite value > 0 (given as
// its bits) and returns them with the decimal exponent k: value ~ digits * 10^k.
func grisu2(b uint64, digits []byte) ([]byte, int) {
	biased := int(b >> 52)
	f := b & (1<<52 - 1)
	e := -1074
	if biased != 0 {
		f += 1 << 52
		e = biased - 1075
	}
	// The rounding interval: its ends are half an ulp away (a quarter below a
	// power of two), scaled to the upper end's exponent.
	upper := normalizedFp(f<<1+1, e-1)
	lower := diyFp{f<<1 - 1, e - 1}
	if f == 1<<52 {
		lower = diyFp{f<<2 - 1, e - 2}
	}
	lower.f <<= uint(lower.e - upper.e)
	lower.e = upper.e

	// A cached power c = 10^-k brings the upper end's exponent into [-60, -32];
	// k is chosen as RapidJSON chooses it (the digits depend on that choice).
	dk := float64(-61-upper.e)*0.30102999566398114 + 347
	ik := int(dk)
	if dk-float64(ik) > 0.0 {
		ik++
	}
	index := ik>>3 + 1
	k := 348 - 8*index
	c := diyFp{cachedPowers[index].f, int(cachedPowers[index].e)}

	w := normalizedFp(f, e).multiply(c)
	top := upper.multiply(c)
	bottom := lower.multiply(c).f + 1
	top.f--
	delta := top.f - bottom

	// Digits of the top end until the rest fits in the interval.
	shift := uint(-top.e)
	one := uint64(1) << shift
	distance := top.f - w.f
	integral := uint32(top.f >> shift)
	fraction := top.f & (one - 1)
	for kappa := integerDigits(integral); kappa > 0; {
		kappa--
		unit := uint32(pow10u[kappa])
		d := integral / unit
		integral %= unit
		if d != 0 || len(digits) != 0 {
			digits = append(digits, byte('0'+d))
		}
		rest := uint64(integral)<<shift + fraction
		if rest <= delta {
			k += kappa
			roundTowardsValue(digits, delta, rest, pow10u[kappa]<<shift, distance)
			return digits, k
		}
	}
	for places := 1; ; places++ {
		fraction *= 10
		delta *= 10
		d := byte(fraction >> shift)
		if d != 0 || len(digits) != 0 {
			digits = append(digits, '0'+d)
		}
		fraction &= one - 1
		if fraction < delta {
			k -= places
			// distance is scaled by 10^places like delta and rest (RapidJSON 1.1.0
			// scaled it only up to 10^8 and used 0 beyond: the wrong last digit)
			scaled := uint64(0)
			if places < 20 {
				scaled = distance * pow10u[places]
			}
			roundTowardsValue(digits, delta, fraction, one, scaled)
			return digits, k
		}
	}
}

// AppendJSONDouble appends the JSON text of a finite value as RapidJSON
// master's Writer::Double writes it (docs/format.md 8.4): Grisu2's digits in
// RapidJSON's layout. NaN and infinities have no JSON number (JSONWriter
// writes them as the strings "NaN", "Infinity", "-Infinity"); given one, it
// appends that text unquoted.
func AppendJSONDouble(dst []byte, value float64) []byte {
	if math.IsNaN(value) {
		return append(dst, "NaN"...)
	}
	if math.IsInf(value, 0) {
		if value < 0 {
			return append(dst, "-Infinity"...)
		}
		return append(dst, "Infinity"...)
	}
	b := math.Float64bits(value)
	if b>>63 != 0 {
		dst = append(dst, '-')
		b &^= 1 << 63
	}
	if b == 0 {
		return append(dst, "0.0"...)
	}
	magnitude := math.Float64frombits(b)
	if magnitude < 9007199254740992.0 {
		// An integer below 2^53 is exact and its ulp is at most 1: no other
		// number of as few digits lies in its rounding interval, so Grisu2's
		// digits are its decimal digits (the common case, written directly).
		if integer := uint64(magnitude); float64(integer) == magnitude {
			dst = strconv.AppendUint(dst, integer, 10)
			return append(dst, ".0"...)
		}
	}
	var space [24]byte
	digits, k := grisu2(b, space[:0])
	n := len(digits)
	kk := n + k // 10^(kk-1) <= value < 10^kk
	switch {
	case k >= 0 && kk <= 21:
		dst = append(dst, digits...)
		for range k {
			dst = append(dst, '0')
		}
		return append(dst, ".0"...)
	case kk > 0 && kk <= 21:
		dst = append(dst, digits[:kk]...)
		dst = append(dst, '.')
		return append(dst, digits[kk:]...)
	case kk > -6 && kk <= 0:
		dst = append(dst, "0."...)
		for range -kk {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[0])
	if n > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'e')
	x := kk - 1
	if x < 0 {
		dst = append(dst, '-')
		x = -x
	}
	return strconv.AppendInt(dst, int64(x), 10)
}
