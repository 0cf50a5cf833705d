// Imported first by benches that measure server code as deployed (deploy/systemd sets
// NODE_ENV=production): react-dom/server picks its production or development build from
// NODE_ENV when it is first loaded, and the development build's checks tripled the React server
// render of a 225-square board. ES modules run their imports in order, so this runs before any
// later import loads React.
process.env.NODE_ENV = 'production';
