// validation.h as grundy supplies it: the interface of BAPCtools' validation header
// (InputValidator, AnswerValidator, OutputValidator; read_integer(s), read_float(s),
// read_string(s), read_line, test_string(s), peek, space, newline, eof, check, WA), written for
// grundy from BAPCtools' documentation. grundy places it on a validator's include path only
// when the package does not ship a validation.h of its own.
//
// Exit codes are the Kattis protocol's: 42 when the input is valid (or the output accepted),
// 43 when it is not, with the reason on stderr as `line:column: message`. An input or answer
// validator is strict about white space, case and floats; an output validator is strict about
// white space only with the `space_change_sensitive` argument and about case only with
// `case_sensitive`, and takes any float notation.
//
// Not supported, each reported on stderr with exit 1 (a validator that cannot run, never a
// verdict on the input): BAPCtools' generator mode (`--generate`, or a binary below
// `generators/`) and its constraints file (`--constraints_file`), which `bt generate` and
// `bt constraints` use and grundy never asks for.
#pragma once

// The standard headers BAPCtools' header includes, which validators written against it use
// without including them (std::ifstream for an output validator's input file, say).
#include <algorithm>
#include <array>
#include <bitset>
#include <cassert>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

// Tags: what a named sequence of values must be, across every call reading that name.
inline struct ArbitraryTag {
	static constexpr bool unique = false, strict = false, increasing = false, decreasing = false;
} Arbitrary;
inline struct UniqueTag : ArbitraryTag {
	static constexpr bool unique = true;
} Unique;
inline struct IncreasingTag : ArbitraryTag {
	static constexpr bool increasing = true;
} Increasing;
inline struct DecreasingTag : ArbitraryTag {
	static constexpr bool decreasing = true;
} Decreasing;
inline struct StrictlyIncreasingTag : ArbitraryTag {
	static constexpr bool strict = true, increasing = true;
} StrictlyIncreasing;
inline struct StrictlyDecreasingTag : ArbitraryTag {
	static constexpr bool strict = true, decreasing = true;
} StrictlyDecreasing;

template <typename... Tags>
struct CombinedTag : Tags... {
	static constexpr bool unique = (Tags::unique || ...), strict = (Tags::strict || ...),
	                      increasing = (Tags::increasing || ...),
	                      decreasing = (Tags::decreasing || ...);
};
template <typename A, typename B,
          std::enable_if_t<std::is_base_of_v<ArbitraryTag, A> && std::is_base_of_v<ArbitraryTag, B>,
                           int> = 0>
CombinedTag<A, B> operator|(A, B) {
	return {};
}

enum Separator { Space, Newline };

class Validator {
  public:
	Validator(const Validator&) = delete;
	Validator& operator=(const Validator&) = delete;

	// Leaving the validator's scope ends the check: nothing may follow, and the input is valid.
	~Validator() { eof_and_AC(); }

	void space() {
		if(ws_sensitive) expect_char(' ', "space");
	}
	void newline() {
		if(ws_sensitive) expect_char('\n', "newline");
	}

	template <typename Tag = ArbitraryTag>
	long long read_integer(const std::string& name, long long low, long long high, Tag tag = Tag{}) {
		long long value = integer(name);
		in_range(name, value, low, high);
		follows(name, value, tag);
		return value;
	}
	template <typename Tag = ArbitraryTag>
	std::vector<long long> read_integers(const std::string& name, int count, long long low,
	                                     long long high, Tag tag = Tag{}, Separator sep = Space) {
		return read_list(count, sep, [&] { return read_integer(name, low, high, tag); });
	}

	template <typename Tag = ArbitraryTag>
	long double read_float(const std::string& name, long double low, long double high,
	                       Tag tag = Tag{}) {
		long double value = floating(name);
		in_range(name, value, low, high);
		follows(name, value, tag);
		return value;
	}
	template <typename Tag = ArbitraryTag>
	std::vector<long double> read_floats(const std::string& name, int count, long double low,
	                                     long double high, Tag tag = Tag{}, Separator sep = Space) {
		return read_list(count, sep, [&] { return read_float(name, low, high, tag); });
	}

	// A token of `min` to `max` characters, each in `chars` unless it is empty.
	template <typename Tag = ArbitraryTag>
	std::string read_string(const std::string& name, long long min, long long max,
	                        std::string_view chars = "", Tag tag = Tag{}) {
		std::string token = next_token("string");
		check_text(name, token, min, max, chars);
		follows(name, token, tag);
		return token;
	}
	template <typename Tag = ArbitraryTag>
	std::vector<std::string> read_strings(const std::string& name, int count, long long min,
	                                      long long max, std::string_view chars = "",
	                                      Tag tag = Tag{}, Separator sep = Space) {
		return read_list(count, sep, [&] { return read_string(name, min, max, chars, tag); });
	}

	// The rest of the line, its newline consumed.
	std::string read_line(const std::string& name, long long min, long long max,
	                      std::string_view chars = "") {
		if(at_end()) fail("expected a line, found EOF");
		std::string line;
		while(!at_end() && in.peek() != '\n') line += take();
		if(at_end()) fail("expected a newline at the end of the line, found EOF");
		take();
		check_text(name, line, min, max, chars);
		return line;
	}

	// A token that must be one of `expected` (ignoring case unless case-sensitive).
	std::string test_strings(std::vector<std::string> expected, const std::string& name = "") {
		std::string token = next_token("string");
		for(const auto& want : expected)
			if(same_text(token, want)) return token;
		std::string options;
		for(const auto& want : expected) options += (options.empty() ? "" : "|") + want;
		fail(name, name.empty() ? "" : ": ", "expected \"", options, "\", found \"", token, "\"");
	}
	std::string test_string(std::string expected, const std::string& name = "") {
		return test_strings({std::move(expected)}, name);
	}

	// Whether the next character is `c` (white space skipped first unless it matters).
	bool peek(char c, const std::string& = "") {
		if(!ws_sensitive) skip_space();
		if(at_end()) return false;
		char next = char(in.peek());
		return case_sensitive ? next == c
		                      : std::tolower((unsigned char)next) == std::tolower((unsigned char)c);
	}

	void eof() {
		if(!ws_sensitive) skip_space();
		if(!at_end()) fail("expected EOF, found ", describe(in.peek()));
	}
	[[noreturn]] void eof_and_AC() {
		eof();
		std::exit(accepted);
	}

	void set_WA_handler(std::function<void()> handler) { on_wa = std::move(handler); }

	template <typename... Ts>
	void check(bool condition, const Ts&... message) {
		static_assert(sizeof...(Ts) > 0, "check needs a message");
		if(!condition) fail(message...);
	}
	template <typename... Ts>
	[[noreturn]] void WA(const Ts&... message) {
		fail(message...);
	}

	// The value after `-name` on the command line, or `fallback`.
	std::string_view get_param(std::string_view name, std::string_view fallback) {
		for(size_t i = 0; i + 1 < args.size(); ++i)
			if(args[i].size() > 1 && args[i][0] == '-' && std::string_view(args[i]).substr(1) == name)
				return args[i + 1];
		return fallback;
	}

	static constexpr int accepted = 42, rejected = 43;

  protected:
	Validator(int argc, char** argv, std::istream& in_, bool ws, bool cs, bool strict)
	    : in(in_), ws_sensitive(ws), case_sensitive(cs), strict_floats(strict) {
		for(int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
		for(const auto& arg : args)
			if(arg == "--generate" || arg == "--constraints_file")
				unsupported(arg == "--generate" ? "generator mode (--generate)"
				                                : "a constraints file (--constraints_file)");
		if(argc > 0 && std::string(argv[0]).find("/generators/") != std::string::npos)
			unsupported("generator mode (a program below generators/)");
	}

	bool has_arg(std::string_view word) const {
		return std::find(args.begin(), args.end(), word) != args.end();
	}

	std::istream& in;
	std::vector<std::string> args;

  private:
	bool ws_sensitive, case_sensitive, strict_floats;
	long long line = 1, column = 1;
	std::function<void()> on_wa = [] {};
	std::map<std::string, std::set<std::string>> seen;

	[[noreturn]] static void unsupported(const char* what) {
		std::cerr << "validation.h: " << what
		          << " is not supported by the validation.h grundy supplies" << std::endl;
		std::exit(1);
	}

	bool at_end() { return in.peek() == std::char_traits<char>::eof(); }
	char take() {
		char c = char(in.get());
		if(c == '\n') ++line, column = 1;
		else ++column;
		return c;
	}
	static bool is_space(int c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == '\v'; }
	void skip_space() {
		while(!at_end() && is_space(in.peek())) take();
	}
	static std::string describe(int c) {
		if(c == std::char_traits<char>::eof()) return "EOF";
		if(c == '\n') return "newline";
		if(c == '\r') return "a carriage return (DOS line ending?)";
		if(c == ' ') return "space";
		if(std::isprint(c)) return std::string("\"") + char(c) + "\"";
		char code[8];
		std::snprintf(code, sizeof code, "\\x%02x", c & 0xff);
		return code;
	}

	void expect_char(char want, const char* what) {
		if(at_end() || in.peek() != want) fail("expected ", what, ", found ", describe(in.peek()));
		take();
	}
	void separator(Separator sep) { sep == Space ? space() : newline(); }

	// `count` values read by `read`, `sep` between them and a newline after them.
	template <typename Read>
	auto read_list(int count, Separator sep, Read read) {
		std::vector<decltype(read())> values;
		for(int i = 0; i < count; ++i) {
			if(i > 0) separator(sep);
			values.push_back(read());
		}
		newline();
		return values;
	}

	std::string next_token(const char* what) {
		if(!ws_sensitive) skip_space();
		if(at_end() || is_space(in.peek())) fail("expected ", what, ", found ", describe(in.peek()));
		std::string token;
		while(!at_end() && !is_space(in.peek())) token += take();
		return token;
	}

	long long integer(const std::string& name) {
		std::string token = next_token("an integer");
		long long value = 0;
		auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
		if(error == std::errc::result_out_of_range)
			fail(name, ": ", token, " does not fit in a 64-bit integer");
		if(error != std::errc{} || end != token.data() + token.size())
			fail(name, ": expected an integer, found \"", token, "\"");
		// One way to write each integer: no leading zeros, no `-0`, no `+`.
		bool negative = token[0] == '-';
		if((token.size() > size_t(negative) + 1 && token[negative] == '0') || token == "-0")
			fail(name, ": \"", token, "\" has a leading zero or a minus sign on zero");
		return value;
	}

	long double floating(const std::string& name) {
		std::string token = next_token("a number");
		// Strict floats: the format's notation with one spelling per number (no `+`, no `E`,
		// no needless leading zeros, digits after a dot).
		static const std::regex strict("-?(0|[1-9][0-9]*)(\\.[0-9]+)?(e-?[1-9][0-9]*)?",
		                               std::regex::nosubs | std::regex::optimize);
		static const std::regex lenient("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?",
		                                std::regex::nosubs | std::regex::optimize);
		if(!std::regex_match(token, strict_floats ? strict : lenient))
			fail(name, ": expected a number, found \"", token, "\"");
		try {
			return std::stold(token);
		} catch(const std::exception&) {
			fail(name, ": ", token, " does not fit in a long double");
		}
	}

	bool same_text(const std::string& a, const std::string& b) const {
		if(case_sensitive) return a == b;
		return a.size() == b.size() &&
		       std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
			       return std::tolower((unsigned char)x) == std::tolower((unsigned char)y);
		       });
	}

	void check_text(const std::string& name, const std::string& text, long long min, long long max,
	                std::string_view chars) {
		if((long long)text.size() < min || (long long)text.size() > max)
			fail(name, ": length ", text.size(), " is not in [", min, ", ", max, "]");
		if(!chars.empty())
			for(char c : text)
				if(chars.find(c) == std::string_view::npos)
					fail(name, ": character ", describe((unsigned char)c), " is not one of \"", chars, "\"");
	}

	template <typename T>
	void in_range(const std::string& name, T value, T low, T high) {
		if(value < low || value > high) fail(name, ": ", value, " is not in [", low, ", ", high, "]");
	}

	// Unique and ordered values are checked per name, across calls: a unique value by its
	// printed form (30 significant digits, so distinct numbers print apart), an ordered one
	// against the last value of its name.
	template <typename T, typename Tag>
	void follows(const std::string& name, const T& value, Tag) {
		if constexpr(Tag::unique || Tag::increasing || Tag::decreasing) {
			std::ostringstream key;
			key.precision(30);
			key << value;
			if constexpr(Tag::unique)
				if(!seen[name].insert(key.str()).second) fail(name, ": ", value, " is repeated");
			if constexpr(Tag::increasing || Tag::decreasing) {
				auto& previous = last_value<T>()[name];
				if(previous.first) {
					const T& before = previous.second;
					bool ok = Tag::increasing ? (Tag::strict ? before < value : !(value < before))
					                          : (Tag::strict ? value < before : !(before < value));
					if(!ok)
						fail(name, ": ", value, " after ", before, " is not ",
						     Tag::strict ? "strictly " : "",
						     Tag::increasing ? "increasing" : "decreasing");
				}
				previous = {true, value};
			}
		}
	}
	template <typename T>
	static std::map<std::string, std::pair<bool, T>>& last_value() {
		static std::map<std::string, std::pair<bool, T>> values;
		return values;
	}

	template <typename... Ts>
	[[noreturn]] void fail(const Ts&... message) {
		on_wa();
		std::cerr << line << ":" << column << ": ";
		((std::cerr << message), ...);
		std::cerr << std::endl;
		std::exit(rejected);
	}
};

// Checks a test case's input: strict about white space, case and floats.
class InputValidator : public Validator {
  public:
	explicit InputValidator(int argc = 0, char** argv = nullptr)
	    : Validator(argc, argv, std::cin, true, true, true) {}
};

// Checks a test case's answer (`.ans` on stdin; the input file is the first argument): strict
// about white space, case and floats.
class AnswerValidator : public Validator {
  public:
	explicit AnswerValidator(int argc, char** argv, std::istream& in_ = std::cin)
	    : Validator(argc, argv, in_, true, true, true) {}
};

// Checks a submission's output (Kattis protocol: input, answer and feedback folder as the
// first arguments, then the case's flags): strict about white space with
// `space_change_sensitive`, about case with `case_sensitive`; any float notation. The default
// validator's `float_tolerance`, `float_absolute_tolerance` and `float_relative_tolerance`
// arguments are read into float_absolute_tolerance and float_relative_tolerance (0 when absent)
// for the validator's own comparisons.
class OutputValidator : public Validator {
  public:
	explicit OutputValidator(int argc, char** argv, std::istream& in_ = std::cin)
	    : Validator(argc, argv, in_, has(argc, argv, "space_change_sensitive"),
	                has(argc, argv, "case_sensitive"), false) {
		for(size_t i = 0; i + 1 < args.size(); ++i) {
			const std::string& key = args[i];
			if(key == "float_tolerance" || key == "float_absolute_tolerance")
				float_absolute_tolerance = std::stold(args[i + 1]);
			if(key == "float_tolerance" || key == "float_relative_tolerance")
				float_relative_tolerance = std::stold(args[i + 1]);
		}
	}

	long double float_absolute_tolerance = 0, float_relative_tolerance = 0;

  private:
	static bool has(int argc, char** argv, std::string_view word) {
		for(int i = 1; i < argc; ++i)
			if(argv[i] == word) return true;
		return false;
	}
};
