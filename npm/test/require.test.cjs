// The API through CommonJS: require('equijson') from a project that installed the tarball.
'use strict';
const suite = require('./cases.cjs');
suite(require('equijson'), 'require');
