// A small JSON reader and writer for the native engine: reads the compiled ruleset
// (build/engine/*.json) keeping object keys in their written order, and writes results.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tn {

struct J {
  enum T : uint8_t { NUL, BOOL, INT, DBL, STR, ARR, OBJ } t = NUL;
  bool b = false;
  int64_t i = 0;
  double d = 0.0;
  std::string s;
  std::vector<J> a;
  std::vector<std::pair<std::string, J>> o;

  bool is_null() const { return t == NUL; }
  bool is_int() const { return t == INT; }
  bool is_str() const { return t == STR; }
  bool is_obj() const { return t == OBJ; }
  const J* get(const std::string& k) const {
    if (t != OBJ) return nullptr;
    for (auto& kv : o)
      if (kv.first == k) return &kv.second;
    return nullptr;
  }
  bool has(const std::string& k) const { return get(k) != nullptr; }
  const J& at(const std::string& k) const {
    const J* v = get(k);
    if (!v) throw std::runtime_error("missing key " + k);
    return *v;
  }
  // Python truthiness of a JSON value
  bool truthy() const {
    switch (t) {
      case NUL: return false;
      case BOOL: return b;
      case INT: return i != 0;
      case DBL: return d != 0.0;
      case STR: return !s.empty();
      case ARR: return !a.empty();
      case OBJ: return !o.empty();
    }
    return false;
  }
  int64_t num() const {
    if (t == INT) return i;
    if (t == BOOL) return b ? 1 : 0;
    if (t == DBL) return (int64_t)d;
    if (t == STR) return std::strtoll(s.c_str(), nullptr, 10);
    throw std::runtime_error("not a number");
  }
  double dbl() const {
    if (t == DBL) return d;
    if (t == INT) return (double)i;
    if (t == BOOL) return b ? 1.0 : 0.0;
    throw std::runtime_error("not a number");
  }
};

struct Parser {
  const char* p;
  const char* end;
  void ws() {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
  }
  [[noreturn]] void fail(const char* what) { throw std::runtime_error(std::string("json: ") + what); }
  void put_utf8(std::string& out, uint32_t c) {
    if (c < 0x80) out += (char)c;
    else if (c < 0x800) { out += (char)(0xC0 | (c >> 6)); out += (char)(0x80 | (c & 0x3F)); }
    else if (c < 0x10000) {
      out += (char)(0xE0 | (c >> 12)); out += (char)(0x80 | ((c >> 6) & 0x3F));
      out += (char)(0x80 | (c & 0x3F));
    } else {
      out += (char)(0xF0 | (c >> 18)); out += (char)(0x80 | ((c >> 12) & 0x3F));
      out += (char)(0x80 | ((c >> 6) & 0x3F)); out += (char)(0x80 | (c & 0x3F));
    }
  }
  uint32_t hex4() {
    if (end - p < 4) fail("bad escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = *p++;
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else fail("bad escape");
    }
    return v;
  }
  std::string str() {
    if (p >= end || *p != '"') fail("expected string");
    ++p;
    std::string out;
    while (p < end && *p != '"') {
      char c = *p++;
      if (c != '\\') { out += c; continue; }
      if (p >= end) fail("bad escape");
      char e = *p++;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          uint32_t c1 = hex4();
          if (c1 >= 0xD800 && c1 < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
            p += 2;
            uint32_t c2 = hex4();
            c1 = 0x10000 + ((c1 - 0xD800) << 10) + (c2 - 0xDC00);
          }
          put_utf8(out, c1);
          break;
        }
        default: fail("bad escape");
      }
    }
    if (p >= end) fail("unterminated string");
    ++p;
    return out;
  }
  J value(int depth = 0) {
    if (depth > 200) fail("too deep");
    ws();
    if (p >= end) fail("unexpected end");
    J v;
    char c = *p;
    if (c == '{') {
      ++p;
      v.t = J::OBJ;
      ws();
      if (p < end && *p == '}') { ++p; return v; }
      while (true) {
        ws();
        std::string k = str();
        ws();
        if (p >= end || *p != ':') fail("expected :");
        ++p;
        v.o.emplace_back(std::move(k), value(depth + 1));
        ws();
        if (p < end && *p == ',') { ++p; continue; }
        if (p < end && *p == '}') { ++p; break; }
        fail("expected , or }");
      }
    } else if (c == '[') {
      ++p;
      v.t = J::ARR;
      ws();
      if (p < end && *p == ']') { ++p; return v; }
      while (true) {
        v.a.push_back(value(depth + 1));
        ws();
        if (p < end && *p == ',') { ++p; continue; }
        if (p < end && *p == ']') { ++p; break; }
        fail("expected , or ]");
      }
    } else if (c == '"') {
      v.t = J::STR;
      v.s = str();
    } else if (c == 't' && end - p >= 4 && !strncmp(p, "true", 4)) {
      p += 4; v.t = J::BOOL; v.b = true;
    } else if (c == 'f' && end - p >= 5 && !strncmp(p, "false", 5)) {
      p += 5; v.t = J::BOOL; v.b = false;
    } else if (c == 'n' && end - p >= 4 && !strncmp(p, "null", 4)) {
      p += 4; v.t = J::NUL;
    } else {
      const char* s0 = p;
      bool flt = false;
      if (p < end && (*p == '-' || *p == '+')) ++p;
      while (p < end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' ||
                         *p == '-' || *p == '+')) {
        if (*p == '.' || *p == 'e' || *p == 'E') flt = true;
        ++p;
      }
      if (p == s0) fail("unexpected character");
      std::string num(s0, p - s0);
      if (flt) { v.t = J::DBL; v.d = std::strtod(num.c_str(), nullptr); }
      else { v.t = J::INT; v.i = std::strtoll(num.c_str(), nullptr, 10); }
    }
    return v;
  }
};

inline J parse(const char* text) {
  Parser ps{text, text + std::strlen(text)};
  J v = ps.value();
  ps.ws();
  if (ps.p != ps.end) ps.fail("trailing data");
  return v;
}

inline void put_str(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += (char)c;
        }
    }
  }
  out += '"';
}

inline void put_int(std::string& out, int64_t v) { out += std::to_string(v); }

inline void put_json(std::string& out, const J& v) {
  switch (v.t) {
    case J::NUL: out += "null"; break;
    case J::BOOL: out += v.b ? "true" : "false"; break;
    case J::INT: put_int(out, v.i); break;
    case J::DBL: {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", v.d);
      out += buf;
      break;
    }
    case J::STR: put_str(out, v.s); break;
    case J::ARR:
      out += '[';
      for (size_t k = 0; k < v.a.size(); ++k) {
        if (k) out += ',';
        put_json(out, v.a[k]);
      }
      out += ']';
      break;
    case J::OBJ:
      out += '{';
      for (size_t k = 0; k < v.o.size(); ++k) {
        if (k) out += ',';
        put_str(out, v.o[k].first);
        out += ':';
        put_json(out, v.o[k].second);
      }
      out += '}';
      break;
  }
}

}  // namespace tn
