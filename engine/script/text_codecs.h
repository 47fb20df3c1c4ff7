#pragma once
// str.encode and bytes.decode: the codecs scripts name (utf-8, ascii, latin-1), with
// CPython's error handlers strict, ignore and replace and its UnicodeError messages.

#include <string>

namespace fusescope {

class Interpreter;

std::string encodeText(Interpreter& in, const std::string& text, const std::string& encoding, const std::string& errors);
std::string decodeBytes(Interpreter& in, const std::string& data, const std::string& encoding, const std::string& errors);

}  // namespace fusescope
