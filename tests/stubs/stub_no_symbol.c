/* A shared library without OrtGetApiBase: ortkit must refuse it by name. */
int ortkit_stub_not_onnxruntime(void);
int ortkit_stub_not_onnxruntime(void) { return 42; }
