// ascgen devkit backend: no SIMT model on dav_c220; the library only needs the header to exist.
#pragma once
