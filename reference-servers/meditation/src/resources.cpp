// resources/list, resources/read and resources/templates/list over the note index.
#include "server.hpp"
#include "slug.hpp"

#include "mcpref/jsonrpc.hpp"

#ifdef MEDITATION_MUTANT_TRAVERSAL
#include "mcpref/atomic_file.hpp"
#endif

namespace meditation {

using mcpref::Json;
using mcpref::rpc::RpcError;

namespace {

// The contract's error for a URI that names no note: -32000 with the URI in data.
[[noreturn]] void not_found(const std::string& uri) {
#ifdef MEDITATION_MUTANT_INTERNAL_ERROR
  throw RpcError(mcpref::rpc::kInternalError, "Internal error", Json{{"uri", uri}});
#else
  throw RpcError(-32000, "Resource not found", Json{{"uri", uri}});
#endif
}

Json list_resources(const NoteLibrary& library) {
  auto index = library.current();
  Json resources = Json::array();
  for (const Note& n : index->notes())
    resources.push_back(
        {{"uri", n.uri}, {"name", n.title}, {"description", n.description}, {"mimeType", "text/markdown"}});
  return Json{{"resources", std::move(resources)}};
}

Json read_resource(const NoteLibrary& library, const Json& params) {
  if (!params.is_object() || !params.contains("uri"))
    throw RpcError(mcpref::rpc::kInvalidParams, "Invalid params: missing required parameter: uri");
  if (!params["uri"].is_string())
    throw RpcError(mcpref::rpc::kInvalidParams, "Invalid params: uri must be a string");
  std::string uri = params["uri"].get<std::string>();
  // Hold one snapshot for the whole request: a sync swapping the index meanwhile cannot
  // pull the note out from under us.
  auto index = library.current();
  const Note* note = index->find_uri(uri);
  if (!note) {
#ifdef MEDITATION_MUTANT_TRAVERSAL
    // The bug this mutant stands for: the URI's path taken as a file path below the folder.
    if (uri.rfind(kUriPrefix, 0) == 0) {
      try {
        std::string text =
            mcpref::read_file_limited(library.root() / (uri.substr(kUriPrefix.size()) + ".md"), 1 << 20);
        return Json{{"contents", Json::array({{{"uri", uri}, {"mimeType", "text/markdown"}, {"text", text}}})}};
      } catch (const std::exception&) {
      }
    }
#endif
    not_found(uri);
  }
  std::string text;
  try {
    text = library.read(*note);
  } catch (const NoteGone&) {
    not_found(uri);  // deleted since the last scan: for the client it is simply not there
  }
  return Json{{"contents", Json::array({{{"uri", note->uri}, {"mimeType", "text/markdown"}, {"text", text}}})}};
}

}  // namespace

void register_resource_methods(mcpref::Dispatcher& dispatcher, NoteLibrary& library) {
  dispatcher.on_request("resources/list", [&library](const Json& params) {
    refuse_cursor(params);
    return list_resources(library);
  });
  dispatcher.on_request("resources/read", [&library](const Json& params) { return read_resource(library, params); });
  dispatcher.on_request("resources/templates/list", [](const Json& params) {
    refuse_cursor(params);
    return Json{{"resourceTemplates",
                 Json::array({{{"uriTemplate", std::string(kUriPrefix) + "{slug}"},
                               {"name", "Meditation note"},
                               {"description", "A note of the notes folder by its slug (see resources/list)"},
                               {"mimeType", "text/markdown"}}})}};
  });
}

}  // namespace meditation
