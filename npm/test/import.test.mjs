// The API through ESM: import from 'equijson' in a project that installed the tarball.
import * as lib from 'equijson';
import suite from './cases.cjs';

suite(lib, 'import');
