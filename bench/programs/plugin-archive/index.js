// The clusters of programs/plugin: only the plugin this program's Pulumi.yaml names differs.
"use strict";
require("../plugin/index.js");
