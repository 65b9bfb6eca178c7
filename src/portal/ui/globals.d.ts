// Stylesheets are bundled by esbuild into portal.css; importing one yields nothing in code.
declare module '*.css';
