// zlib for scripts, through zlib itself (CPython's Modules/zlibmodule.c, the subset scripts
// use): compress/decompress in one shot, compressobj/decompressobj streams, crc32 and
// adler32, zlib.error with CPython's "Error N while ..." messages. gzip (script library)
// builds on it.
#include <zlib.h>

#include <fmt/format.h>

#include "script/interpreter.h"
#include "script/types/bytes_type.h"
#include "script/types/method_table.h"
#include "script/types/numbers.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

[[noreturn]] void zlibError(Interpreter& in, int code, const char* doing, const z_stream& stream) {
    const char* why = stream.msg;
    if (!why) why = code == Z_BUF_ERROR ? "incomplete or truncated stream" : code == Z_STREAM_ERROR ? "inconsistent stream state" : "library error";
    in.fail("zlib.error", fmt::format("Error {} while {}: {}", code, doing, why));
}

const std::string& dataArgument(Interpreter& in, const CallArgs& a) {
    if (a.args.empty()) in.fail("TypeError", "function missing required argument 'data' (pos 1)");
    return requireBytes(in, a.args[0]);
}

// Runs deflate or inflate over `input` until it is consumed (and, with Z_FINISH, the stream
// ends), appending what it makes to out; the code the last call returned.
template <class Step>
int pump(z_stream& stream, const std::string& input, std::string& out, Step step) {
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    stream.avail_in = static_cast<uInt>(input.size());
    int code;
    do {
        char chunk[16384];
        stream.next_out = reinterpret_cast<Bytef*>(chunk);
        stream.avail_out = sizeof chunk;
        code = step(stream);
        out.append(chunk, sizeof chunk - stream.avail_out);
    } while ((code == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)));
    return code;
}

// A compressobj or decompressobj: a zlib stream kept between calls.
struct ZlibStreamObject : Object {
    z_stream stream{};
    bool compressing = false;
    bool eof = false;             // a decompressor reached the end of its stream
    std::string unusedData;       // input after the end of the stream
    ~ZlibStreamObject() override { compressing ? deflateEnd(&stream) : inflateEnd(&stream); }
    std::string typeName() const override { return compressing ? "Compress" : "Decompress"; }
    const TypeSlots* slots() const override;
};

ZlibStreamObject& streamOf(const Value& self) { return *self.as<ZlibStreamObject>(); }

Value streamCompress(Interpreter& in, const Value& self, CallArgs& a) {
    auto& z = streamOf(self);
    std::string out;
    const int code = pump(z.stream, dataArgument(in, a), out, [](z_stream& s) { return deflate(&s, Z_NO_FLUSH); });
    if (code != Z_OK && code != Z_BUF_ERROR) zlibError(in, code, "compressing data", z.stream);
    return makeBytes(out);
}

Value streamFlush(Interpreter& in, const Value& self, CallArgs& a) {
    auto& z = streamOf(self);
    std::string out;
    if (!z.compressing) return makeBytes(out);  // a decompressor keeps no output back
    const int mode = static_cast<int>(intArgumentOr(in, a, 0, "mode", Z_FINISH));
    if (mode == Z_NO_FLUSH) return makeBytes(out);
    const int code = pump(z.stream, std::string(), out, [mode](z_stream& s) { return deflate(&s, mode); });
    if (code != Z_STREAM_END && code != Z_OK && code != Z_BUF_ERROR) zlibError(in, code, "flushing", z.stream);
    return makeBytes(out);
}

Value streamDecompress(Interpreter& in, const Value& self, CallArgs& a) {
    auto& z = streamOf(self);
    std::string out;
    if (z.eof) {
        z.unusedData += dataArgument(in, a);
        return makeBytes(out);
    }
    const int code = pump(z.stream, dataArgument(in, a), out, [](z_stream& s) { return inflate(&s, Z_SYNC_FLUSH); });
    if (code == Z_STREAM_END) {
        z.eof = true;
        z.unusedData.assign(reinterpret_cast<const char*>(z.stream.next_in), z.stream.avail_in);
    } else if (code != Z_OK && code != Z_BUF_ERROR) {
        zlibError(in, code, "decompressing data", z.stream);
    }
    return makeBytes(out);
}

const MethodTable& zlibStreamMethods() {
    static const MethodTable table("zlib stream", {
        {"compress", streamCompress, 1, 1},
        {"decompress", streamDecompress, 1, 1},
        {"flush", streamFlush, 0, 1},
    });
    return table;
}

const GetterTable& zlibStreamGetters() {
    static const GetterTable table({
        {"eof", [](Interpreter&, const Value& self) { return Value(streamOf(self).eof); }},
        {"unused_data", [](Interpreter&, const Value& self) { return makeBytes(streamOf(self).unusedData); }},
        {"unconsumed_tail", [](Interpreter&, const Value&) { return makeBytes(""); }},
    });
    return table;
}

Value compressOneShot(Interpreter& in, CallArgs& a) {
    const std::string& data = dataArgument(in, a);
    const int level = static_cast<int>(intArgumentOr(in, a, 1, "level", Z_DEFAULT_COMPRESSION));
    const int wbits = static_cast<int>(intArgumentOr(in, a, 2, "wbits", MAX_WBITS));
    z_stream stream{};
    int code = deflateInit2(&stream, level, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY);
    if (code == Z_STREAM_ERROR) in.fail("zlib.error", "Bad compression level");
    std::string out;
    code = pump(stream, data, out, [](z_stream& s) { return deflate(&s, Z_FINISH); });
    deflateEnd(&stream);
    if (code != Z_STREAM_END) zlibError(in, code, "compressing data", stream);
    return makeBytes(out);
}

Value decompressOneShot(Interpreter& in, CallArgs& a) {
    const std::string& data = dataArgument(in, a);
    const int wbits = static_cast<int>(intArgumentOr(in, a, 1, "wbits", MAX_WBITS));
    z_stream stream{};
    if (inflateInit2(&stream, wbits) != Z_OK) in.fail("zlib.error", "Error -2 while preparing to decompress data: invalid window size");
    std::string out;
    const int code = pump(stream, data, out, [](z_stream& s) { return inflate(&s, Z_SYNC_FLUSH); });
    if (code != Z_STREAM_END) {
        const z_stream failed = stream;
        inflateEnd(&stream);
        zlibError(in, code == Z_OK ? Z_BUF_ERROR : code, "decompressing data", failed);
    }
    inflateEnd(&stream);
    return makeBytes(out);
}

template <uLong (*kChecksum)(uLong, const Bytef*, uInt), uLong kStart>
Value checksum(Interpreter& in, CallArgs& a) {
    const std::string& data = dataArgument(in, a);
    const auto start = static_cast<uLong>(static_cast<uint32_t>(intArgumentOr(in, a, 1, "value", kStart)));
    return Value(static_cast<int64_t>(kChecksum(start, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())) & 0xFFFFFFFFu));
}

Value makeStream(Interpreter& in, CallArgs& a, bool compressing) {
    auto z = std::make_shared<ZlibStreamObject>();
    z->compressing = compressing;
    int code;
    if (compressing) {
        code = deflateInit2(&z->stream, static_cast<int>(intArgumentOr(in, a, 0, "level", Z_DEFAULT_COMPRESSION)),
                            static_cast<int>(intArgumentOr(in, a, 1, "method", Z_DEFLATED)), static_cast<int>(intArgumentOr(in, a, 2, "wbits", MAX_WBITS)),
                            static_cast<int>(intArgumentOr(in, a, 3, "memLevel", 8)), static_cast<int>(intArgumentOr(in, a, 4, "strategy", Z_DEFAULT_STRATEGY)));
    } else {
        code = inflateInit2(&z->stream, static_cast<int>(intArgumentOr(in, a, 0, "wbits", MAX_WBITS)));
    }
    if (code != Z_OK) {
        z->compressing ? deflateEnd(&z->stream) : inflateEnd(&z->stream);
        in.fail("ValueError", "Invalid initialization option");
    }
    return Value(ObjectPtr(z));
}

}  // namespace

const TypeSlots* ZlibStreamObject::slots() const {
    static const TypeSlots type{.name = "zlib stream", .getters = &zlibStreamGetters(), .methods = &zlibStreamMethods()};
    return &type;
}

Value makeZlibModule(Interpreter& interp) {
    auto module = std::make_shared<ModuleObject>();
    module->name = "zlib";
    ClassPtr error = interp.moduleExceptionClass("zlib", "error");
    auto& attrs = module->attrs;
    attrs["error"] = Value(ObjectPtr(error));
    attrs["compress"] = makeBuiltin("compress", compressOneShot);
    attrs["decompress"] = makeBuiltin("decompress", decompressOneShot);
    attrs["crc32"] = makeBuiltin("crc32", checksum<crc32, 0>);
    attrs["adler32"] = makeBuiltin("adler32", checksum<adler32, 1>);
    attrs["compressobj"] = makeBuiltin("compressobj", [](Interpreter& in, CallArgs& a) { return makeStream(in, a, true); });
    attrs["decompressobj"] = makeBuiltin("decompressobj", [](Interpreter& in, CallArgs& a) { return makeStream(in, a, false); });
    for (const auto& [name, value] : std::initializer_list<std::pair<const char*, int64_t>>{
             {"MAX_WBITS", MAX_WBITS}, {"DEFLATED", Z_DEFLATED}, {"DEF_MEM_LEVEL", 8}, {"DEF_BUF_SIZE", 16384},
             {"Z_NO_COMPRESSION", Z_NO_COMPRESSION}, {"Z_BEST_SPEED", Z_BEST_SPEED}, {"Z_BEST_COMPRESSION", Z_BEST_COMPRESSION},
             {"Z_DEFAULT_COMPRESSION", Z_DEFAULT_COMPRESSION}, {"Z_DEFAULT_STRATEGY", Z_DEFAULT_STRATEGY}, {"Z_FILTERED", Z_FILTERED},
             {"Z_HUFFMAN_ONLY", Z_HUFFMAN_ONLY}, {"Z_RLE", Z_RLE}, {"Z_FIXED", Z_FIXED}, {"Z_NO_FLUSH", Z_NO_FLUSH},
             {"Z_SYNC_FLUSH", Z_SYNC_FLUSH}, {"Z_FULL_FLUSH", Z_FULL_FLUSH}, {"Z_FINISH", Z_FINISH}})
        attrs[name] = Value(value);
    attrs["ZLIB_VERSION"] = Value(ZLIB_VERSION);
    attrs["ZLIB_RUNTIME_VERSION"] = Value(zlibVersion());
    return Value(ObjectPtr(module));
}

}  // namespace fusescope
