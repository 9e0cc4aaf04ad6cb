// The built dashboard's directory, for the gateway that serves it (the package has no code of its own to run).
module.exports = { dashboardRoot: require('node:path').join(__dirname, 'dist') };
