# tilec_add_kernels(): compiles .tile files into AOT modules at build time for a C++ target.
# Installed beside tilecConfig.cmake, which includes it; tilec's own build includes it from
# runtime/, so the same call works against an install and in-tree (tilec::tilec is the CLI).
#
#   tilec_add_kernels(<target> SOURCES <a.tile> [<b.tile> ...] [ARCHS <sm_XX> ...]
#                     [BLOCK_DIMS <n> ...] [HEADER <name.h>] [NAME <module>])
#
# Every source is its own module, <module>.so in ${CMAKE_CURRENT_BINARY_DIR}/<target>.tilec/,
# named after the file's stem unless NAME is given. One module per file (rather than one
# module of all files concatenated) is what makes an edit to one .tile recompile that module
# alone, and keeps each file's module-level names to itself. NAME and HEADER describe a single
# module, so they need exactly one source: call the function once per module to give several
# modules their own names and headers (the calls add up on the target).
#
#   ARCHS       GPU architectures whose PTX the module embeds beside its host code
#               (`tilec compile --arch=sm_80,sm_90`); without it the module is host code only.
#   BLOCK_DIMS  the block_dims that tiled kernels' GPU code is built for (`--block-dim=64,128`;
#               tilec's default is 256), which GPU launches must then use. Ignored without
#               ARCHS: host code serves every block_dim, so a project may pass both from
#               options that leave ARCHS empty on CPU-only builds.
#   HEADER      also writes the module's typed launcher header (`tilec compile --emit=header`)
#               as <target>.tilec/<name.h>; that folder is on the target's include path, so
#               `#include "<name.h>"` finds it. Its C++ namespace is the header's stem.
#   NAME        the module's name instead of the source file's stem.
#
# The target links tilec::tilec_rt and is compiled with TILEC_KERNELS_<MODULE>_PATH, the
# absolute path of each module's .so (MODULE upper-cased, other characters than letters and
# digits turned into `_`), for rt::Module::Load. Each module is built before the target and
# rebuilt when its source or the tilec executable changes; the target is not relinked (the
# module is loaded at run time), but its files that include a module's header are recompiled
# when that module is (the header is written anew).
include_guard(GLOBAL)

function(tilec_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "HEADER;NAME" "SOURCES;ARCHS;BLOCK_DIMS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tilec_add_kernels: unexpected arguments `${arg_UNPARSED_ARGUMENTS}`")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tilec_add_kernels: `${target}` is not a target")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "tilec_add_kernels(${target}): no SOURCES")
  endif()
  list(LENGTH arg_SOURCES n_sources)
  if((arg_NAME OR arg_HEADER) AND NOT n_sources EQUAL 1)
    message(FATAL_ERROR "tilec_add_kernels(${target}): NAME and HEADER need exactly one source; "
                        "call tilec_add_kernels once per module")
  endif()
  if(NOT TARGET tilec::tilec)
    message(FATAL_ERROR "tilec_add_kernels: no tilec::tilec executable (the tilec_compiler "
                        "component of the install is missing)")
  endif()

  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.tilec)
  file(MAKE_DIRECTORY ${out_dir})
  set(gpu_options "")
  if(arg_ARCHS)
    list(JOIN arg_ARCHS "," archs)
    list(APPEND gpu_options "--arch=${archs}")
    if(arg_BLOCK_DIMS)
      list(JOIN arg_BLOCK_DIMS "," block_dims)
      list(APPEND gpu_options "--block-dim=${block_dims}")
    endif()
  endif()

  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(src_abs "${src}" ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    if(arg_NAME)
      set(module ${arg_NAME})
    else()
      get_filename_component(module "${src_abs}" NAME_WE)
    endif()
    string(MAKE_C_IDENTIFIER "${module}" module_id)
    string(TOUPPER "${module_id}" module_macro)
    set(module_target ${target}_tilec_${module_id})
    if(TARGET ${module_target})
      message(FATAL_ERROR "tilec_add_kernels(${target}): two modules named `${module}`")
    endif()
    set(so ${out_dir}/${module}.so)
    set(outputs ${so})
    set(commands COMMAND tilec::tilec compile ${gpu_options} -o ${so} ${src_abs})
    if(arg_HEADER)
      list(APPEND outputs ${out_dir}/${arg_HEADER})
      list(APPEND commands COMMAND tilec::tilec compile --emit=header -o ${out_dir}/${arg_HEADER} ${src_abs})
      target_include_directories(${target} PRIVATE ${out_dir})
    endif()
    # DEPENDS on the executable target: a file-level dependency on the tilec binary (imported
    # or built here), so a new compiler recompiles the modules, and in-tree it is built first.
    add_custom_command(OUTPUT ${outputs} ${commands}
      DEPENDS ${src_abs} tilec::tilec
      COMMENT "tilec: compiling module ${module} (${src})"
      VERBATIM)
    add_custom_target(${module_target} DEPENDS ${outputs})
    add_dependencies(${target} ${module_target})
    target_compile_definitions(${target} PRIVATE TILEC_KERNELS_${module_macro}_PATH="${so}")
  endforeach()
  target_link_libraries(${target} PRIVATE tilec::tilec_rt)
endfunction()
