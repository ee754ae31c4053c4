# One CTest test per documentation page: `tilec doctest --device cpu PAGE`. The pages are
# docs/*.rst, the two normative pages in ../shared/spec (or their copies in tests/spec_pages
# when the shared folder is absent), and the pages of Warp's own examples in
# ../shared/warp-docs that tilec runs verbatim (run from there, never copied; warp_pages.txt
# lists them). Included once, from wherever first.
get_property(_tilec_doctest_done GLOBAL PROPERTY TILEC_DOCTEST_REGISTERED)
if(NOT _tilec_doctest_done AND TARGET tilec)
  set_property(GLOBAL PROPERTY TILEC_DOCTEST_REGISTERED TRUE)
  file(GLOB _tilec_doc_pages ${CMAKE_SOURCE_DIR}/docs/*.rst)
  if(EXISTS ${CMAKE_SOURCE_DIR}/../shared/spec)
    file(GLOB _tilec_spec_pages ${CMAKE_SOURCE_DIR}/../shared/spec/*.rst)
  else()
    file(GLOB _tilec_spec_pages ${CMAKE_SOURCE_DIR}/tests/spec_pages/*.rst)
  endif()
  foreach(_page ${_tilec_doc_pages})
    get_filename_component(_name ${_page} NAME_WE)
    add_test(NAME doctest.docs.${_name} COMMAND $<TARGET_FILE:tilec> doctest --device cpu ${_page})
  endforeach()
  # Every page of Warp's examples is a test. Pages not yet in warp_pages.txt are expected
  # failures (WILL_FAIL): the day one passes, its test fails until the page joins the list,
  # so the count of pages tilec runs only goes up.
  file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/warp_pages.txt _tilec_warp_pages REGEX "^[a-z]")
  set(_tilec_warp_dir ${CMAKE_SOURCE_DIR}/../shared/warp-docs)
  if(EXISTS ${_tilec_warp_dir})
    file(GLOB _tilec_warp_all RELATIVE ${_tilec_warp_dir} ${_tilec_warp_dir}/*.rst ${_tilec_warp_dir}/guide/*.rst)
    foreach(_rel ${_tilec_warp_all})
      string(REGEX REPLACE "\\.rst$" "" _name ${_rel})
      string(REPLACE "/" "." _test ${_name})
      add_test(NAME doctest.warp.${_test}
               COMMAND $<TARGET_FILE:tilec> doctest --device cpu ${_tilec_warp_dir}/${_rel})
      set_tests_properties(doctest.warp.${_test} PROPERTIES TIMEOUT 120)
      list(FIND _tilec_warp_pages ${_name} _listed)
      if(_listed EQUAL -1)
        set_tests_properties(doctest.warp.${_test} PROPERTIES WILL_FAIL TRUE LABELS warp-xfail)
      elseif(_name MATCHES "^(tile|guide/guide_tiles_[0-9]|tile_from_thread|tile_scatter_.*|tile_rand.*|tile_stack)$")
        # The per-lane pages also under host-SIMT emulation, each launch with its own
        # block_dim: the GPU lowering must give the same answers.
        add_test(NAME doctest.warp_simt.${_test}
                 COMMAND $<TARGET_FILE:tilec> doctest --device cpu ${_tilec_warp_dir}/${_rel})
        set_tests_properties(doctest.warp_simt.${_test} PROPERTIES TIMEOUT 120 ENVIRONMENT TILEC_SIMT_EMULATION=block_dim)
      endif()
    endforeach()
  endif()
  foreach(_page ${_tilec_spec_pages})
    get_filename_component(_name ${_page} NAME_WE)
    add_test(NAME doctest.spec.${_name} COMMAND $<TARGET_FILE:tilec> doctest --device cpu ${_page})
  endforeach()
endif()
