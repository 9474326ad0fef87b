# fusecc-config.cmake: find_package(fusecc) for CMake projects that generate their GPU
# kernels with fusecc (docs/cmake.md).
#
#   find_package(fusecc 0.1 REQUIRED)     # installed: PREFIX/share/cmake/fusecc
#                                          # source tree: -Dfusecc_DIR=/path/to/fusecc/cmake
#   add_library(kernels STATIC)
#   fusecc_add_kernel(kernels attention.c [TARGETS cuda hip torch] [FLAGS -DD=128 ...]
#                     [OUTPUT_DIR dir])
#
# Defines FUSECC_EXECUTABLE (a cache variable: set it to choose another binary),
# FUSECC_INCLUDE_DIR (fusecc --print-include-dir), the imported targets fusecc::fusecc
# (the compiler) and fusecc::headers (the include directory), and fusecc_add_kernel.

if(TARGET fusecc::fusecc)
	return()
endif()

# An install puts this file in PREFIX/share/cmake/fusecc and the binary in PREFIX/bin; the
# source tree has it in cmake/ and the binary in build/.
if(NOT FUSECC_EXECUTABLE)
	if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/../../../bin/fusecc")
		get_filename_component(_fusecc_exe "${CMAKE_CURRENT_LIST_DIR}/../../../bin/fusecc" ABSOLUTE)
	elseif(EXISTS "${CMAKE_CURRENT_LIST_DIR}/../build/fusecc")
		get_filename_component(_fusecc_exe "${CMAKE_CURRENT_LIST_DIR}/../build/fusecc" ABSOLUTE)
	else()
		find_program(_fusecc_exe fusecc)
	endif()
	set(FUSECC_EXECUTABLE "${_fusecc_exe}" CACHE FILEPATH "The fusecc compiler")
	unset(_fusecc_exe)
	unset(_fusecc_exe CACHE)
endif()

execute_process(COMMAND "${FUSECC_EXECUTABLE}" --print-include-dir
	OUTPUT_VARIABLE FUSECC_INCLUDE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE
	RESULT_VARIABLE _fusecc_rc ERROR_QUIET)
if(NOT _fusecc_rc EQUAL 0 OR NOT EXISTS "${FUSECC_INCLUDE_DIR}/fusecc.h")
	set(fusecc_FOUND FALSE)
	set(fusecc_NOT_FOUND_MESSAGE "fusecc not found or not working ('${FUSECC_EXECUTABLE}'); set FUSECC_EXECUTABLE to the binary")
	unset(_fusecc_rc)
	return()
endif()
unset(_fusecc_rc)

add_executable(fusecc::fusecc IMPORTED)
set_target_properties(fusecc::fusecc PROPERTIES IMPORTED_LOCATION "${FUSECC_EXECUTABLE}")
add_library(fusecc::headers INTERFACE IMPORTED)
set_target_properties(fusecc::headers PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${FUSECC_INCLUDE_DIR}")

# fusecc_add_kernel(<target> <file.c> [TARGETS cuda|hip|torch ...] [FLAGS <fusecc options>...]
#                   [OUTPUT_DIR <dir>])
# Generates <stem>.cu (cuda, the default), <stem>.hip (hip) and <stem>_torch.cpp (torch:
# the PyTorch operators, which need the .cu and Torch) from <file.c> at build time, into
# OUTPUT_DIR (default ${CMAKE_CURRENT_BINARY_DIR}/fusecc), and adds them to <target>'s
# sources with fusecc's include directory. Relative paths in FLAGS (-Iinc, -I inc, and
# -isystem, -idirafter, -iquote, -include after --) are relative to the current source
# directory, as in target_include_directories (they are made absolute: the dependency
# file then names absolute paths, which CMake needs). fusecc's -MD dependency file is the custom
# command's DEPFILE: editing the C file, a header it includes, or installing another fusecc
# regenerates the kernel. cuda needs the CUDA language enabled, hip the HIP language.
function(fusecc_add_kernel target source)
	cmake_parse_arguments(PARSE_ARGV 2 FK "" "OUTPUT_DIR" "TARGETS;FLAGS")
	if(FK_UNPARSED_ARGUMENTS)
		message(FATAL_ERROR "fusecc_add_kernel: unknown arguments '${FK_UNPARSED_ARGUMENTS}' (TARGETS, FLAGS, OUTPUT_DIR)")
	endif()
	if(NOT TARGET ${target})
		message(FATAL_ERROR "fusecc_add_kernel: '${target}' is not a target (add_library or add_executable first)")
	endif()
	if(NOT FK_TARGETS)
		set(FK_TARGETS cuda)
	endif()
	if(NOT FK_OUTPUT_DIR)
		set(FK_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/fusecc")
	endif()
	get_filename_component(src "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
	get_filename_component(stem "${src}" NAME_WLE)
	set(flags "")
	set(path_next FALSE)
	foreach(f IN LISTS FK_FLAGS)
		if(path_next)
			get_filename_component(f "${f}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
			set(path_next FALSE)
		elseif(f MATCHES "^(-I|-isystem|-idirafter|-iquote|-include)$")
			set(path_next TRUE)
		elseif(f MATCHES "^-I(.+)$")
			get_filename_component(dir "${CMAKE_MATCH_1}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
			set(f "-I${dir}")
		endif()
		list(APPEND flags "${f}")
	endforeach()
	get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
	file(MAKE_DIRECTORY "${FK_OUTPUT_DIR}")
	foreach(kind IN LISTS FK_TARGETS)
		if(kind STREQUAL "cuda")
			set(ext ".cu")
			set(lang CUDA)
		elseif(kind STREQUAL "hip")
			set(ext ".hip")
			set(lang HIP)
		elseif(kind STREQUAL "torch")
			set(ext "_torch.cpp")
			set(lang CXX)
		else()
			message(FATAL_ERROR "fusecc_add_kernel: unknown target kind '${kind}' (cuda, hip or torch)")
		endif()
		if(NOT lang IN_LIST languages)
			message(FATAL_ERROR "fusecc_add_kernel(${target} ${source}): TARGETS ${kind} needs the ${lang} language: add it to project(... LANGUAGES ...) or call enable_language(${lang})")
		endif()
		set(out "${FK_OUTPUT_DIR}/${stem}${ext}")
		add_custom_command(OUTPUT "${out}"
			COMMAND "${FUSECC_EXECUTABLE}" ${flags} "${src}" -o "${out}" -MD -MF "${out}.d" -MT "${out}"
			DEPENDS "${src}" "${FUSECC_EXECUTABLE}"
			DEPFILE "${out}.d"
			COMMENT "fusecc ${source} -> ${stem}${ext}"
			VERBATIM COMMAND_EXPAND_LISTS)
		set_source_files_properties("${out}" PROPERTIES GENERATED TRUE LANGUAGE ${lang})
		target_sources(${target} PRIVATE "${out}")
		if(kind STREQUAL "cuda")
			target_compile_features(${target} PRIVATE cuda_std_17)
		elseif(kind STREQUAL "hip")
			target_compile_features(${target} PRIVATE hip_std_17)
		endif()
	endforeach()
	target_link_libraries(${target} PRIVATE fusecc::headers)
endfunction()
