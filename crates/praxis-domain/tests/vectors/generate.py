#!/usr/bin/env python3
"""Regenerates jcs.json and reject.json beside this file.

Expected canonical text comes from the `rfc8785` package (pip install rfc8785),
never from our Rust code, so the vectors check our canonicalizer independently.
Run: python3 crates/praxis-domain/tests/vectors/generate.py
"""

import hashlib
import json
import math
import os

import rfc8785

KIND = "praxis.payload.v1"
MAX_SAFE = 2**53 - 1
HERE = os.path.dirname(os.path.abspath(__file__))

# (name, raw JSON input text). Raw strings keep JSON escapes as written.
VALID = [
    # Literals and empty containers.
    ("null", r"null"),
    ("true", r"true"),
    ("false", r"false"),
    ("empty_object", r"{}"),
    ("empty_array", r"[]"),
    ("empty_containers_nested", r'{"a":{},"b":[],"c":[{},[]]}'),
    # Whitespace of every allowed kind disappears.
    ("whitespace_removed", ' \t\r\n{ "b" :\t[ 1 ,\n 2 ] ,\r\n "a" : { } }\n '),
    ("whitespace_in_array", "[\n  true ,\n  false ,\n  null\n]"),
    # Key order: UTF-16 code units, not code points or UTF-8 bytes.
    ("keys_rfc8785_3_2_3", r'{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}'),
    ("keys_non_bmp_before_fb33", r'{"\ufb33":1,"\ud83d\ude00":2}'),
    ("keys_non_bmp_before_private_use", r'{"\ue000":1,"\ud83d\ude00":2,"\uffff":3}'),
    ("keys_case", r'{"b":1,"B":2,"a":3,"A":4,"_":5}'),
    ("keys_prefixes_and_empty", r'{"ab":1,"a":2,"":3,"abc":4,"b":5}'),
    ("keys_digits_sort_as_text", r'{"10":1,"9":2,"1":3,"100":4}'),
    ("keys_escaped_spelling", r'{"\u0062":1,"\u0061":2}'),
    ("keys_sorted_at_every_depth", r'{"z":{"y":[{"b":1,"a":2}],"x":0},"a":{"d":1,"c":2}}'),
    # Nesting.
    ("nested_mixed", r'[{"k":[1,{"j":null,"i":[true,false]}]},"s",[[[]]]]'),
    ("deep_array_64", "[" * 64 + "0" + "]" * 64),
    ("deep_object_32", '{"a":' * 32 + "null" + "}" * 32),
    # String escapes: only ", \ and controls below 0x20 stay escaped.
    ("escape_quote_backslash", r'"a\"b\\c"'),
    ("escape_short_forms", r'"\b\f\n\r\t"'),
    ("escape_all_controls", '"' + "".join("\\u%04x" % c for c in range(0x20)) + '"'),
    ("escape_u001f", r'"\u001f"'),
    ("escape_uppercase_hex", r'"\u001F\u00E9"'),
    ("solidus_unescaped", r'"a\/b/c"'),
    ("del_passthrough", r'"\u007f"'),
    ("line_separators_passthrough", r'"\u2028\u2029"'),
    ("escaped_ascii_unescaped", r'"\u0041\u0062"'),
    ("unicode_raw_passthrough", '"h\u00e9llo \u65e5\u672c \U0001f600"'),
    ("unicode_escaped_becomes_raw", r'"\u00e9\u65e5\ud83d\ude00"'),
    ("noncharacter_passthrough", r'"\uffff\ufffe"'),
    # Numbers: ECMAScript Number-to-string, integral values without exponent.
    ("number_zero", r"0"),
    ("number_minus_zero", r"-0"),
    ("number_minus_zero_float", r"-0.0"),
    ("number_one_point_zero", r"1.0"),
    ("number_1e2", r"1e2"),
    ("number_1E2_upper", r"1E+2"),
    ("number_4_50", r"4.50"),
    ("number_0_1", r"0.1"),
    ("number_0_1_plus_0_2", r"0.30000000000000004"),
    ("number_2e_3", r"2e-3"),
    ("number_1e_6_plain", r"1e-6"),
    ("number_1e_7_exponent", r"1e-7"),
    ("number_1_5e_7", r"1.5e-7"),
    ("number_1e_27", r"0.000000000000000000000000001"),
    ("number_5e_324", r"5e-324"),
    ("number_min_normal", r"2.2250738585072014e-308"),
    ("number_rfc_333333333", r"333333333.33333329"),
    ("number_123456789012345", r"123456789012345"),
    ("number_max_safe", r"9007199254740991"),
    ("number_min_safe", r"-9007199254740991"),
    ("number_max_safe_as_float", r"9007199254740991.0"),
    ("number_half_below_2_52", r"4503599627370495.5"),
    ("number_next_after_one", r"1.0000000000000002"),
    ("number_negative_fraction", r"-1.5"),
    ("number_many_digits_rounded", r"0.1000000000000000055511151231257827"),
    # The RFC 8785 section 3.2.2 example, minus 1E30 (our parser refuses it).
    ("rfc8785_example_without_1e30", r'{"numbers":[333333333.33333329,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA' + "'" + r'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}'),
]

# (name, raw input, reason, expected DomainError variant, JSON pointer or None).
REJECT = [
    ("duplicate_top", r'{"a":1,"a":2}', "duplicate key at the root", "DuplicateKey", "/a"),
    ("duplicate_nested", r'{"x":{"y":{"k":1,"k":1}}}', "duplicate key two levels down, equal values", "DuplicateKey", "/x/y/k"),
    ("duplicate_in_array", r'[{"k":1},{"k":2,"k":3}]', "duplicate key inside an array element", "DuplicateKey", "/1/k"),
    ("duplicate_via_escape", r'{"a":1,"\u0061":2}', "duplicate key spelled with an escape", "DuplicateKey", "/a"),
    ("int_2_53", r"9007199254740992", "integer just above 2^53-1", "NumberOutOfRange", ""),
    ("int_minus_2_53", r"-9007199254740992", "integer just below -(2^53-1)", "NumberOutOfRange", ""),
    ("int_u64_overflow", r"[18446744073709551616]", "integer beyond u64", "NumberOutOfRange", "/0"),
    ("float_1e16", r"1e16", "integral double above 2^53-1", "NumberOutOfRange", ""),
    ("float_minus_1e16", r'{"n":-1e16}', "integral double below -(2^53-1)", "NumberOutOfRange", "/n"),
    ("float_1e21", r"1e21", "integral double; JCS would print 1e+21 but the value is outside the exact range", "NumberOutOfRange", ""),
    ("float_max", r"1.7976931348623157e308", "largest double is integral and far above 2^53", "NumberOutOfRange", ""),
    ("float_2_53_with_fraction", r"9007199254740992.0", "integral double 2^53 written with a fraction", "NumberOutOfRange", ""),
    ("float_overflow", r"1e400", "overflows to infinity", "MalformedJson", None),
    ("lone_high_surrogate", r'"\ud800"', "lone high surrogate", "MalformedJson", None),
    ("lone_low_surrogate", r'"\udc00x"', "lone low surrogate", "MalformedJson", None),
    ("reversed_surrogate_pair", r'"\ude00\ud83d"', "low surrogate before high surrogate", "MalformedJson", None),
    ("lone_surrogate_in_key", r'{"\ud83d":1}', "lone high surrogate in a key", "MalformedJson", None),
    ("trailing_garbage", r"{} x", "content after the document", "MalformedJson", None),
    ("two_documents", r"{}{}", "two documents", "MalformedJson", None),
    ("trailing_comma", r"[1,]", "trailing comma", "MalformedJson", None),
    ("missing_value", r'{"a":}', "member without a value", "MalformedJson", None),
    ("single_quotes", r"{'a':1}", "single-quoted key", "MalformedJson", None),
    ("nan", r"NaN", "NaN is not JSON", "MalformedJson", None),
    ("infinity", r"[Infinity]", "Infinity is not JSON", "MalformedJson", None),
    ("leading_zero", r"01", "leading zero", "MalformedJson", None),
    ("raw_control_in_string", '"a\tb"', "unescaped control character in a string", "MalformedJson", None),
    ("unterminated_string", r'"abc', "unterminated string", "MalformedJson", None),
    ("empty_input", "", "no document at all", "MalformedJson", None),
]


def strict_loads(text):
    """Python's json with the same refusals as parse_strict, as a second opinion."""

    def pairs(items):
        keys = [k for k, _ in items]
        if len(keys) != len(set(keys)):
            raise ValueError("duplicate key")
        return dict(items)

    def integer(s):
        if abs(int(s)) > MAX_SAFE:
            raise ValueError("integer out of range")
        return int(s)

    def number(s):
        f = float(s)
        if not math.isfinite(f) or (f.is_integer() and abs(f) > MAX_SAFE):
            raise ValueError("float out of range")
        return f

    def constant(s):
        raise ValueError("not JSON: " + s)

    return json.loads(text, object_pairs_hook=pairs, parse_int=integer,
                      parse_float=number, parse_constant=constant)


def main():
    vectors = []
    for name, text in VALID:
        # dumps also refuses lone surrogates, because it encodes to UTF-8.
        canonical = rfc8785.dumps(strict_loads(text))
        digest = hashlib.sha256(KIND.encode() + b"\n" + canonical).hexdigest()
        vectors.append({"name": name, "input": text, "canonical": canonical.decode("utf-8"),
                        "kind": KIND, "digest": digest})

    rejects = []
    for name, text, reason, error, path in REJECT:
        # Confirm Python refuses each too, so no vector relies on our parser alone.
        try:
            rfc8785.dumps(strict_loads(text))
        except ValueError:  # JSONDecodeError and CanonicalizationError included
            pass
        else:
            raise SystemExit(f"{name}: Python accepted an input meant to be rejected")
        entry = {"name": name, "input": text, "reason": reason, "error": error}
        if path is not None:
            entry["path"] = path
        rejects.append(entry)

    assert len({v["name"] for v in vectors}) == len(vectors), "duplicate vector names"
    for file, data in (("jcs.json", vectors), ("reject.json", rejects)):
        with open(os.path.join(HERE, file), "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False, indent=2)
            out.write("\n")
    print(f"{len(vectors)} vectors, {len(rejects)} reject vectors")


if __name__ == "__main__":
    main()
