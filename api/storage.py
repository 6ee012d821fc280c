"""Static files in production: WhiteNoise's compressed manifest storage,
which gives every file a name with its content's hash (served with a
year's cache), with the `import` and `export ... from` lines of the pages'
ES modules rewritten to those hashed names too, so a module and everything
it imports change address together."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
