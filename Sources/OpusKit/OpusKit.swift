// OpusKit: thin Swift wrappers of the C library, one file per concept (filled in by its adapter).
enum OpusKitPlaceholder {}
