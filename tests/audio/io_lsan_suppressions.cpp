// The leak checker of the sanitised test run (CI's AddressSanitizer job) skips
// one allocation that is not Ember's: libsndfile 1.2.0's Ogg/Vorbis opener
// leaks the vorbis_info it allocated when a file turns out malformed
// (ogg_vorbis.c's error path, before any handle reaches Ember). The hostile-file
// tests open such files on purpose. fuzz/fuzz_audio_load.cpp carries the same line.
// If another part of this test binary needs suppressions, they join this list:
// the hook can be defined once per executable.
extern "C" const char* __lsan_default_suppressions() { return "leak:vorbis_info_init\n"; }
