/** The built dashboard's directory (index.html and assets/). */
export declare const dashboardRoot: string;
